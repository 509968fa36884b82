using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using Newtonsoft.Json.Serialization;

namespace JsonBench.Worker;

/// <summary>
/// A .NET serializer adapter: builds the measured call for one unit type, once per process,
/// before the gate, never timed. Options objects are made once and reused (both libraries cache
/// metadata per options/contract-resolver instance, as a service would hold them).
/// </summary>
public interface IDotnetSerializer
{
    string Id { get; }
    /// <summary>The assembly whose code is measured; its loaded version is sent to the host.</summary>
    Assembly Library { get; }
    /// <summary>The call being measured, as reports show it.</summary>
    string Code(bool serialize);
    Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class;
    Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class;
}

/// <summary>The built-in .NET serializers; `stj` is the baseline of .NET cases (as in the report site's tables).</summary>
public static class Serializers
{
    public const string Baseline = "stj";

    public static readonly IReadOnlyList<IDotnetSerializer> All = new IDotnetSerializer[]
    {
        new StjReflection(), new StjSourceGen(), new NewtonsoftJson(), new WrongDotnet(), new IdleDotnet(), new SpikeDotnet(),
    };

    public static IDotnetSerializer? Find(string id) => All.FirstOrDefault(s => s.Id == id);

    /// <summary>STJ options for a workload, as the studies set them (reflection metadata unless a resolver is given).</summary>
    public static JsonSerializerOptions StjOptions(WireSettings s, IJsonTypeInfoResolver? resolver = null)
    {
        var o = new JsonSerializerOptions
        {
            WriteIndented = s.Indented,
            PropertyNamingPolicy = s.SnakeCase ? JsonNamingPolicy.SnakeCaseLower : null,
            NumberHandling = s.NumbersFromStrings ? JsonNumberHandling.AllowReadingFromString : JsonNumberHandling.Strict,
        };
#if STJ9_OR_GREATER
        // System.Text.Json 9+ (STJ9_OR_GREATER, JsonBench.Worker.csproj: .NET 9+, or an STJ 9+ package): `$type` may follow other properties; before, it must come first
        o.AllowOutOfOrderMetadataProperties = s.Polymorphic;
#endif
        if (resolver != null) o.TypeInfoResolver = resolver;
        return o;
    }
}

/// <summary>`stj`: System.Text.Json with reflection metadata, JsonSerializer.Serialize/Deserialize&lt;T&gt;(…, options).</summary>
sealed class StjReflection : IDotnetSerializer
{
    public string Id => "stj";
    public Assembly Library => typeof(JsonSerializer).Assembly;
    public string Code(bool serialize) => serialize ? "JsonSerializer.Serialize(value, options)" : "JsonSerializer.Deserialize<T>(text, options)";
    // settings per call (study 001's code): `new JsonSerializerOptions { … }` in the call, no resolver named, as the study
    // wrote it (System.Text.Json then shares the metadata of options that are equal, so the cost is the object itself)
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        if (s.SettingsPerCall) return v => JsonSerializer.Serialize(v, Serializers.StjOptions(s));
        var options = Serializers.StjOptions(s, new DefaultJsonTypeInfoResolver());
        return v => JsonSerializer.Serialize(v, options);
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        if (s.SettingsPerCall) return t => JsonSerializer.Deserialize<U>(t, Serializers.StjOptions(s))!;
        var options = Serializers.StjOptions(s, new DefaultJsonTypeInfoResolver());
        return t => JsonSerializer.Deserialize<U>(t, options)!;
    }
}

/// <summary>`stj-sourcegen`: System.Text.Json with the generated JsonSerializerContext (its options are the context's [JsonSourceGenerationOptions]).</summary>
sealed class StjSourceGen : IDotnetSerializer
{
    public string Id => "stj-sourcegen";
    public Assembly Library => typeof(JsonSerializer).Assembly;
    public string Code(bool serialize) => serialize ? "JsonSerializer.Serialize(value, Context.Default.T)" : "JsonSerializer.Deserialize(text, Context.Default.T)";
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var info = codec.Generated;
        return v => JsonSerializer.Serialize(v, info);
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var info = codec.Generated;
        return t => JsonSerializer.Deserialize(t, info)!;
    }
}

/// <summary>`newtonsoft`: Newtonsoft.Json's JsonConvert with one JsonSerializerSettings (Formatting.Indented and SnakeCaseNamingStrategy for the settings variant; numeric strings converted by its default).</summary>
sealed class NewtonsoftJson : IDotnetSerializer
{
    public string Id => "newtonsoft";
    public Assembly Library => typeof(Newtonsoft.Json.JsonConvert).Assembly;
    public string Code(bool serialize) => serialize ? "JsonConvert.SerializeObject(value, settings)" : "JsonConvert.DeserializeObject<T>(text, settings)";

    static Newtonsoft.Json.JsonSerializerSettings Settings(WireSettings s) => new Newtonsoft.Json.JsonSerializerSettings
    {
        Formatting = s.Indented ? Newtonsoft.Json.Formatting.Indented : Newtonsoft.Json.Formatting.None,
        ContractResolver = s.SnakeCase ? new DefaultContractResolver { NamingStrategy = new SnakeCaseNamingStrategy() } : new DefaultContractResolver(),
    };

    // settings per call (study 001's code): a new JsonSerializerSettings and contract resolver in each call, whose
    // contract cache starts empty every time
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        if (s.SettingsPerCall) return v => Newtonsoft.Json.JsonConvert.SerializeObject(v, Settings(s));
        var settings = Settings(s);
        return v => Newtonsoft.Json.JsonConvert.SerializeObject(v, settings);
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        if (s.SettingsPerCall) return t => Newtonsoft.Json.JsonConvert.DeserializeObject<U>(t, Settings(s))!;
        var settings = Settings(s);
        return t => Newtonsoft.Json.JsonConvert.DeserializeObject<U>(t, settings)!;
    }
}

/// <summary>
/// `wrong-dotnet`: deliberately wrong, for the gate's tests. System.Text.Json with a resolver
/// modifier that drops the last property of every object type: serialize leaves it out, and
/// deserialize ignores it (the model keeps null/default there).
/// </summary>
sealed class WrongDotnet : IDotnetSerializer
{
    public string Id => "wrong-dotnet";
    public Assembly Library => typeof(JsonSerializer).Assembly;
    public string Code(bool serialize) => "System.Text.Json without each type's last property";

    static JsonSerializerOptions Options(WireSettings s)
    {
        var resolver = new DefaultJsonTypeInfoResolver();
        resolver.Modifiers.Add(ti =>
        {
            if (ti.Kind == JsonTypeInfoKind.Object && ti.Properties.Count > 0) ti.Properties.RemoveAt(ti.Properties.Count - 1);
        });
        return Serializers.StjOptions(s, resolver);
    }
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var options = Options(s);
        return v => JsonSerializer.Serialize(v, options);
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var options = Options(s);
        return t => JsonSerializer.Deserialize<U>(t, options)!;
    }
}

/// <summary>
/// `idle-dotnet`: for the method's tests. System.Text.Json (reflection) that also sleeps 1 ms per call:
/// correct output, an op that takes wall time but almost no CPU time, so a test can tell which clock
/// the warmup and the pilot read (on process CPU time they run hundreds of ops where wall time stops
/// them after a few).
/// </summary>
sealed class IdleDotnet : IDotnetSerializer
{
    readonly StjReflection _stj = new StjReflection();
    public string Id => "idle-dotnet";
    public Assembly Library => typeof(JsonSerializer).Assembly;
    public string Code(bool serialize) => "System.Text.Json (reflection), then Thread.Sleep(1)";
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var call = _stj.Serializer(codec, s);
        return v => { var o = call(v); System.Threading.Thread.Sleep(1); return o; };
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var call = _stj.Deserializer(codec, s);
        return t => { var o = call(t); System.Threading.Thread.Sleep(1); return o; };
    }
}

/// <summary>
/// `spike-dotnet`: for the pilot's test. System.Text.Json (reflection) whose <see cref="SpikeCall"/>-th
/// call in the process (either direction, counted from 1) also spins for <see cref="SpikeMs"/> ms of the
/// thread's CPU time (wall time without that clock): correct output and a one-off that lengthens one
/// early pilot sample past the target when warmup ran fewer ops than that (a test sets warmupMinOps),
/// as a GC or a compile would. A pilot without confirming samples stops there at a few ops per sample.
/// </summary>
sealed class SpikeDotnet : IDotnetSerializer
{
    /// <summary>The call that spins (1-based, over the process).</summary>
    public const int SpikeCall = 60;
    /// <summary>How long it spins (ms).</summary>
    public const double SpikeMs = 20;
    readonly StjReflection _stj = new StjReflection();
    int _calls;
    public string Id => "spike-dotnet";
    public Assembly Library => typeof(JsonSerializer).Assembly;
    public string Code(bool serialize) => $"System.Text.Json (reflection); call {SpikeCall} also spins {SpikeMs} ms";
    void Count()
    {
        if (System.Threading.Interlocked.Increment(ref _calls) != SpikeCall) return;
        if (Clock.HasThreadCpu) { long end = Clock.ThreadCpuNs() + (long)(SpikeMs * 1e6); while (Clock.ThreadCpuNs() < end) { } }
        else { long start = Clock.WallTicks(); while (Clock.MsSince(start) < SpikeMs) { } }
    }
    public Func<U, string> Serializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var call = _stj.Serializer(codec, s);
        return v => { var o = call(v); Count(); return o; };
    }
    public Func<string, U> Deserializer<U>(Codec<U> codec, WireSettings s) where U : class
    {
        var call = _stj.Deserializer(codec, s);
        return t => { var o = call(t); Count(); return o; };
    }
}
