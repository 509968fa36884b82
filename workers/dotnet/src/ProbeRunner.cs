using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using NJ = Newtonsoft.Json;

namespace JsonBench.Worker;

/// <summary>
/// A probe launch (ProbeJob in src/worker/protocol.ts; never timed): the host's probe cells for one
/// serializer. The host judges; the worker only runs each probe side and reports what happened.
/// </summary>
public sealed class ProbeJob
{
    public string Serializer = "";
    public List<(string Probe, string Direction)> Cells = new List<(string, string)>();
    public string PayloadPath = "";
    public string? Key;

    /// <summary>Whether a start line carries a probe job (`job.mode` is "probe"); false for anything else, malformed lines included.</summary>
    public static bool IsProbe(string line)
    {
        try
        {
            using var doc = JsonDocument.Parse(line);
            return doc.RootElement.ValueKind == JsonValueKind.Object && doc.RootElement.TryGetProperty("job", out var j)
                && j.ValueKind == JsonValueKind.Object && j.TryGetProperty("mode", out var m) && m.ValueKind == JsonValueKind.String && m.GetString() == "probe";
        }
        catch (JsonException) { return false; }
    }

    /// <summary>Parses a probe job's start line. Throws FormatException naming a missing field.</summary>
    public static ProbeJob Parse(string line)
    {
        using var doc = JsonDocument.Parse(line);
        var root = doc.RootElement;
        if (!root.TryGetProperty("protocol", out var p) || p.ValueKind != JsonValueKind.Number || p.GetInt32() != Channel.Version)
            throw new FormatException($"expected a start message of protocol {Channel.Version}");
        var j = root.GetProperty("job");
        string Str(JsonElement e, string name) =>
            e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString()! : throw new FormatException($"start message: {name} must be a string");
        var job = new ProbeJob
        {
            Serializer = Str(j, "serializer"),
            PayloadPath = Str(j, "payloadPath"),
            Key = root.TryGetProperty("key", out var k) && k.ValueKind == JsonValueKind.String ? k.GetString() : null,
        };
        if (!j.TryGetProperty("cells", out var cells) || cells.ValueKind != JsonValueKind.Array) throw new FormatException("start message: cells must be an array");
        foreach (var c in cells.EnumerateArray()) job.Cells.Add((Str(c, "probe"), Str(c, "direction")));
        return job;
    }
}

/// <summary>The settings a probe cell asks of every library, each in its own terms (the host's DotnetCell.settings).</summary>
public sealed class ProbeSettings
{
    /// <summary>null (none), "snake", "camel" or "kebab": STJ JsonNamingPolicy.SnakeCaseLower/CamelCase/KebabCaseLower, Newtonsoft's SnakeCase/CamelCase/KebabCaseNamingStrategy.</summary>
    public string? Naming;
    /// <summary>true: STJ's <see cref="ProbeDateConverter"/>; Newtonsoft DateFormatString = its format.</summary>
    public bool DateFormat;
    /// <summary>true: Newtonsoft TypeNameHandling.All (STJ's type names are attributes on the types).</summary>
    public bool TypeNames;
    /// <summary>true: Newtonsoft MissingMemberHandling.Error (STJ's is [JsonUnmappedMemberHandling] on the type).</summary>
    public bool MissingMembersError;
    /// <summary>true: STJ WriteIndented, Newtonsoft Formatting.Indented (both two spaces).</summary>
    public bool Indented;

    public static ProbeSettings From(JsonElement? e)
    {
        var s = new ProbeSettings();
        if (e is not JsonElement o || o.ValueKind != JsonValueKind.Object) return s;
        if (ProbeModel.Member(o, "naming") is JsonElement n && n.ValueKind == JsonValueKind.String) s.Naming = n.GetString();
        s.DateFormat = ProbeModel.Member(o, "dateFormat")?.ValueKind == JsonValueKind.True;
        s.TypeNames = ProbeModel.Member(o, "typeNames")?.ValueKind == JsonValueKind.True;
        s.MissingMembersError = ProbeModel.Member(o, "missingMembers")?.ValueKind == JsonValueKind.String;
        s.Indented = ProbeModel.Member(o, "indented")?.ValueKind == JsonValueKind.True;
        return s;
    }
}

/// <summary>A library as the probes call it: a writer and a reader for a type under a cell's settings, made before the call (the prepare stage).</summary>
public interface IProbeSerializer
{
    string Id { get; }
    /// <summary>Why this library has no way to do what the cell asks (shown as ✘), or null.</summary>
    string? Declines(Type t, ProbeSettings s);
    Func<object?, string> Writer(Type t, ProbeSettings s);
    Func<string, object?> Reader(Type t, ProbeSettings s);
}

/// <summary>The probe serializers: the three built-ins and two deliberately wrong ones for the tests.</summary>
public static class ProbeSerializers
{
    public static readonly IReadOnlyList<IProbeSerializer> All = new IProbeSerializer[]
    {
        new StjProbe(), new StjSourceGenProbe(), new NewtonsoftProbe(), new WrongDotnetProbe(), new SymbolNanProbe(),
    };

    public static IProbeSerializer? Find(string id) => All.FirstOrDefault(s => s.Id == id);

    /// <summary>System.Text.Json's options for a cell (reflection metadata through <paramref name="resolver"/>).</summary>
    public static JsonSerializerOptions StjOptions(ProbeSettings s, IJsonTypeInfoResolver resolver)
    {
        var o = new JsonSerializerOptions
        {
            TypeInfoResolver = resolver,
            WriteIndented = s.Indented,
            PropertyNamingPolicy = s.Naming switch
            {
                "snake" => JsonNamingPolicy.SnakeCaseLower,
                "camel" => JsonNamingPolicy.CamelCase,
                "kebab" => JsonNamingPolicy.KebabCaseLower,
                _ => null,
            },
        };
        if (s.DateFormat) o.Converters.Add(new ProbeDateConverter());
        return o;
    }
}

/// <summary>`stj`: JsonSerializer.Serialize/Deserialize with reflection metadata and the cell's options.</summary>
sealed class StjProbe : IProbeSerializer
{
    public string Id => "stj";
    public string? Declines(Type t, ProbeSettings s) => null;
    public Func<object?, string> Writer(Type t, ProbeSettings s)
    {
        var o = ProbeSerializers.StjOptions(s, new DefaultJsonTypeInfoResolver());
        o.GetTypeInfo(t);
        return v => JsonSerializer.Serialize(v, t, o);
    }
    public Func<string, object?> Reader(Type t, ProbeSettings s)
    {
        var o = ProbeSerializers.StjOptions(s, new DefaultJsonTypeInfoResolver());
        o.GetTypeInfo(t);
        return text => JsonSerializer.Deserialize(text, t, o);
    }
}

/// <summary>`stj-sourcegen`: JsonSerializer with the source-generated context of the cell's options (ProbeTypes.cs).</summary>
sealed class StjSourceGenProbe : IProbeSerializer
{
    public string Id => "stj-sourcegen";
    public string? Declines(Type t, ProbeSettings s) => null;
    static JsonSerializerContext Context(ProbeSettings s) =>
        s.Naming == "snake" ? ProbeSnakeContext.Default
        : s.Naming == "camel" ? ProbeCamelContext.Default
        : s.Naming == "kebab" ? ProbeKebabContext.Default
        : s.Indented ? ProbeIndentContext.Default
        : s.DateFormat ? ProbeDateContext.Default
        : ProbeContext.Default;
    static JsonSerializerContext Checked(Type t, ProbeSettings s)
    {
        var c = Context(s);
        if (c.GetTypeInfo(t) == null) throw new NotSupportedException($"{c.GetType().Name} has no generated metadata for {t.Name}");
        return c;
    }
    public Func<object?, string> Writer(Type t, ProbeSettings s)
    {
        var c = Checked(t, s);
        return v => JsonSerializer.Serialize(v, t, c);
    }
    public Func<string, object?> Reader(Type t, ProbeSettings s)
    {
        var c = Checked(t, s);
        return text => JsonSerializer.Deserialize(text, t, c);
    }
}

/// <summary>`newtonsoft`: JsonConvert.SerializeObject/DeserializeObject with the cell's JsonSerializerSettings.</summary>
class NewtonsoftProbe : IProbeSerializer
{
    public virtual string Id => "newtonsoft";

    public string? Declines(Type t, ProbeSettings s)
    {
        if (t == typeof(ProbeKindPets))
            return "Newtonsoft.Json has no discriminator property of its own (it ignores System.Text.Json's [JsonPolymorphic]): a \"kind\" tag needs a JsonConverter; its built-in polymorphism is $type with TypeNameHandling (feature.polymorphism.type-names)";
        if (s.Naming == "kebab" && KebabStrategy == null)
            return $"Newtonsoft.Json {typeof(NJ.JsonConvert).Assembly.GetName().Version} has no KebabCaseNamingStrategy (added in 13.0.1)";
        return null;
    }

    static readonly Type? KebabStrategy = Type.GetType("Newtonsoft.Json.Serialization.KebabCaseNamingStrategy, Newtonsoft.Json");

    protected virtual NJ.JsonSerializerSettings Settings(ProbeSettings s)
    {
        var st = new NJ.JsonSerializerSettings
        {
            ContractResolver = new NJ.Serialization.DefaultContractResolver
            {
                NamingStrategy = s.Naming switch
                {
                    "snake" => new NJ.Serialization.SnakeCaseNamingStrategy(),
                    "camel" => new NJ.Serialization.CamelCaseNamingStrategy(),
                    "kebab" => (NJ.Serialization.NamingStrategy)Activator.CreateInstance(KebabStrategy!)!,
                    _ => null,
                },
            },
            Formatting = s.Indented ? NJ.Formatting.Indented : NJ.Formatting.None,
        };
        if (s.DateFormat) st.DateFormatString = ProbeDateConverter.Format;
        if (s.TypeNames) st.TypeNameHandling = NJ.TypeNameHandling.All;
        if (s.MissingMembersError) st.MissingMemberHandling = NJ.MissingMemberHandling.Error;
        return st;
    }

    public Func<object?, string> Writer(Type t, ProbeSettings s)
    {
        var st = Settings(s);
        return v => NJ.JsonConvert.SerializeObject(v, t, st);
    }
    public Func<string, object?> Reader(Type t, ProbeSettings s)
    {
        var st = Settings(s);
        return text => NJ.JsonConvert.DeserializeObject(text, t, st);
    }
}

/// <summary>`wrong-dotnet` (tests only): System.Text.Json without each type's last property, as in the gate's tests.</summary>
sealed class WrongDotnetProbe : IProbeSerializer
{
    public string Id => "wrong-dotnet";
    public string? Declines(Type t, ProbeSettings s) => null;
    static JsonSerializerOptions Options(ProbeSettings s)
    {
        var resolver = new DefaultJsonTypeInfoResolver();
        resolver.Modifiers.Add(ti =>
        {
            if (ti.Kind == JsonTypeInfoKind.Object && ti.Properties.Count > 0) ti.Properties.RemoveAt(ti.Properties.Count - 1);
        });
        return ProbeSerializers.StjOptions(s, resolver);
    }
    public Func<object?, string> Writer(Type t, ProbeSettings s)
    {
        var o = Options(s);
        return v => JsonSerializer.Serialize(v, t, o);
    }
    public Func<string, object?> Reader(Type t, ProbeSettings s)
    {
        var o = Options(s);
        return text => JsonSerializer.Deserialize(text, t, o);
    }
}

/// <summary>`symbol-nan-dotnet` (tests only): Newtonsoft.Json with FloatFormatHandling.Symbol, which writes NaN and ±Infinity as bare tokens (not JSON).</summary>
sealed class SymbolNanProbe : NewtonsoftProbe
{
    public override string Id => "symbol-nan-dotnet";
    protected override NJ.JsonSerializerSettings Settings(ProbeSettings s)
    {
        var st = base.Settings(s);
        st.FloatFormatHandling = NJ.FloatFormatHandling.Symbol;
        return st;
    }
}

/// <summary>
/// Runs a probe job: per cell `probe-start`, `probe-prepared` (input and the library's writer or reader
/// made), `probe-outcome` (what the call did: its output text as base64 of its UTF-16 code units, or the
/// result written back by <see cref="ProbeModel.Dump"/>, or the exception; and any <see cref="ProbeGadget"/>
/// it constructed), then `done`. A cell's data comes from the probe file's `dotnet` section (written by
/// the host: src/probes/dotnet/catalog.ts). A crash or a hang is the host's to judge (its timeout is re-armed
/// at each `probe-start`).
/// </summary>
public static class ProbeRunner
{
    public static void Run(ProbeJob job, Channel channel, long started)
    {
        IProbeSerializer adapter;
        Dictionary<string, JsonElement> cells;
        JsonDocument doc;
        try
        {
            adapter = ProbeSerializers.Find(job.Serializer)
                ?? throw new FormatException($"unknown .NET serializer \"{job.Serializer}\" (this worker probes: {string.Join(", ", ProbeSerializers.All.Select(s => s.Id))})");
            doc = JsonDocument.Parse(File.ReadAllText(job.PayloadPath));
            var dotnet = ProbeModel.Member(doc.RootElement, "dotnet") ?? throw new FormatException($"the probe file {job.PayloadPath} has no dotnet section");
            cells = new Dictionary<string, JsonElement>();
            foreach (var p in dotnet.EnumerateObject()) cells[p.Name] = p.Value;
        }
        catch (Exception e)
        {
            channel.Send("error", w => { w.WriteString("stage", "load"); w.WriteString("message", Safe(JobRunner.Describe(e))); });
            return;
        }
        using (doc)
        {
            foreach (var (probe, direction) in job.Cells)
            {
                channel.Send("probe-start", w => { w.WriteString("probe", probe); w.WriteString("direction", direction); });
                var outcome = cells.TryGetValue(probe, out var spec)
                    ? RunCell(adapter, spec, direction == "serialize", () => channel.Send("probe-prepared", w => { w.WriteString("probe", probe); w.WriteString("direction", direction); }))
                    : Outcome.Inexpressible($"probe {probe} is not in this worker's .NET cells");
                channel.Send("probe-outcome", w =>
                {
                    w.WriteString("probe", probe);
                    w.WriteString("direction", direction);
                    outcome.Write(w);
                });
            }
        }
        channel.Send("done", w => { w.WriteBoolean("noisy", false); w.WriteNumber("elapsedMs", Clock.MsSince(started)); w.WriteNumber("checksum", 0); });
    }

    /// <summary>What one probe side did.</summary>
    sealed class Outcome
    {
        string _kind = "";
        string? _text64, _dump, _stage, _name, _message, _reason;
        List<string>? _constructed;

        public static Outcome Inexpressible(string reason) => new Outcome { _kind = "inexpressible", _reason = reason };
        public static Outcome Unsupported(string reason) => new Outcome { _kind = "unsupported", _reason = reason };
        public static Outcome Text(string text) => new Outcome { _kind = "returned", _text64 = Utf16Base64(text) };
        public static Outcome Result(string dump) => new Outcome { _kind = "returned", _dump = dump };
        public static Outcome Threw(string stage, Exception e)
        {
            var inner = e;
            while (inner is System.Reflection.TargetInvocationException && inner.InnerException != null) inner = inner.InnerException;
            return new Outcome { _kind = "threw", _stage = stage, _name = inner.GetType().Name, _message = JobRunner.Describe(inner).Substring(inner.GetType().Name.Length + 2) };
        }
        public Outcome With(List<string> constructed) { if (constructed.Count > 0) _constructed = constructed; return this; }

        public void Write(Utf8JsonWriter w)
        {
            w.WriteString("outcome", _kind);
            if (_text64 != null) w.WriteString("text64", _text64);
            if (_dump != null) w.WriteString("dump", _dump);
            if (_stage != null) w.WriteString("stage", _stage);
            if (_name != null) w.WriteString("name", Safe(_name));
            if (_message != null) w.WriteString("message", Safe(_message.Length > 2_000 ? _message.Substring(0, 2_000) : _message));
            if (_reason != null) w.WriteString("reason", Safe(_reason));
            if (_constructed != null)
            {
                w.WriteStartArray("constructed");
                foreach (var c in _constructed) w.WriteStringValue(c);
                w.WriteEndArray();
            }
        }
    }

    /// <summary>The UTF-16 code units of a string as base64 (lone surrogates kept: Encoding.Unicode would replace them).</summary>
    static string Utf16Base64(string s)
    {
        var bytes = new byte[s.Length * 2];
        for (int i = 0; i < s.Length; i++) { bytes[2 * i] = (byte)s[i]; bytes[2 * i + 1] = (byte)(s[i] >> 8); }
        return Convert.ToBase64String(bytes);
    }

    /// <summary>A message the channel can carry: a lone surrogate (which Utf8JsonWriter refuses) written as the text \uXXXX.</summary>
    static string Safe(string s)
    {
        var sb = new StringBuilder(s.Length);
        for (int i = 0; i < s.Length; i++)
        {
            char c = s[i];
            bool pair = char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]);
            if (pair) { sb.Append(c).Append(s[++i]); continue; }
            if (char.IsSurrogate(c)) sb.Append("\\u").Append(((int)c).ToString("X4")); else sb.Append(c);
        }
        return sb.ToString();
    }

    static Outcome RunCell(IProbeSerializer adapter, JsonElement spec, bool serialize, Action prepared)
    {
        Type t;
        ProbeSettings settings;
        object? input = null;
        string? text = null;
        bool roundTrip = ProbeModel.Member(spec, "roundTrip")?.ValueKind == JsonValueKind.True;
        var nested = ProbeModel.Member(spec, "nested");
        try
        {
            t = ProbeTypes.Find(ProbeModel.Member(spec, "type")?.GetString() ?? throw new FormatException("a cell without a type"));
            settings = ProbeSettings.From(ProbeModel.Member(spec, "settings"));
            if (serialize || roundTrip)
            {
                if (nested is JsonElement n) input = Nest(ProbeModel.Member(n, "kind")!.Value.GetString()!, ProbeModel.Member(n, "depth")!.Value.GetInt32());
                else if (ProbeModel.Member(spec, "inputText") is JsonElement it)
                {
                    using var parsed = JsonDocument.Parse(ProbeModel.RawString(it));
                    input = ProbeModel.Read(parsed.RootElement, t);
                }
                else input = ProbeModel.Read(ProbeModel.Member(spec, "input") ?? throw new FormatException("a serialize cell without an input"), t);
            }
            if (!serialize && !roundTrip)
                text = nested is JsonElement nt && ProbeModel.Member(spec, "text") == null
                    ? NestedText(ProbeModel.Member(nt, "kind")!.Value.GetString()!, ProbeModel.Member(nt, "depth")!.Value.GetInt32())
                    : ProbeModel.RawString(ProbeModel.Member(spec, "text") ?? throw new FormatException("a deserialize cell without a text"));
        }
        catch (Exception e)
        {
            return Outcome.Inexpressible($"jsonbench could not build this probe's .NET input: {JobRunner.Describe(e)}");
        }
        var declined = adapter.Declines(t, settings);
        if (declined != null) return Outcome.Unsupported(declined);
        Func<object?, string>? writer = null;
        Func<string, object?>? reader = null;
        try
        {
            if (serialize || roundTrip) writer = adapter.Writer(t, settings);
            if (!serialize) reader = adapter.Reader(t, settings);
        }
        catch (Exception e) { return Outcome.Threw("prepare", e); }
        prepared();
        int before = ProbeGadget.Constructed;
        List<string> Made() => ProbeGadget.Constructed > before ? new List<string> { typeof(ProbeGadget).FullName! } : new List<string>();
        if (serialize)
        {
            string output;
            try { output = writer!(input); }
            catch (Exception e) { return Outcome.Threw("call", e).With(Made()); }
            return Outcome.Text(output).With(Made());
        }
        object? result;
        try
        {
            // a round trip reads what the library itself wrote for the input (what a type comes back as)
            if (roundTrip) text = writer!(input);
            result = reader!(text!);
        }
        catch (Exception e) { return Outcome.Threw("call", e).With(Made()); }
        try
        {
            var dump = nested is JsonElement k ? Nesting(result, ProbeModel.Member(k, "kind")!.Value.GetString()!) : ProbeModel.Dump(result, t);
            return Outcome.Result(dump).With(Made());
        }
        catch (Exception e)
        {
            return Outcome.Inexpressible($"the worker could not write the result back: {JobRunner.Describe(e)}");
        }
    }

    /// <summary>`kind`s nested `depth` deep around the number 1 (as src/probes/catalog/structure.ts builds them), without recursion.</summary>
    static object Nest(string kind, int depth)
    {
        object v = 1L;
        if (kind == "array")
        {
            for (int i = 1; i < depth; i++) v = new List<object?> { v };
            return new List<object?> { v };
        }
        for (int i = 0; i < depth; i++) v = new Dictionary<string, object?> { ["a"] = v };
        return v;
    }

    /// <summary>The text of `kind`s nested `depth` deep around 1: [[…[1]…]] or {"a":{"a":…1…}}.</summary>
    static string NestedText(string kind, int depth)
    {
        var sb = new StringBuilder();
        for (int i = 0; i < depth; i++) sb.Append(kind == "array" ? "[" : "{\"a\":");
        sb.Append('1');
        for (int i = 0; i < depth; i++) sb.Append(kind == "array" ? ']' : '}');
        return sb.ToString();
    }

    /// <summary>A deep result summarised without recursion: {"$nested":kind,"depth":N,"leaf":…} (N levels of one-element arrays or one-key "a" objects).</summary>
    static string Nesting(object? v, string kind)
    {
        int depth = 0;
        while (true)
        {
            object? next = null;
            bool more = false;
            switch (v)
            {
                case JsonElement e when kind == "array" && e.ValueKind == JsonValueKind.Array && e.GetArrayLength() == 1: next = e[0]; more = true; break;
                case JsonElement e when kind == "object" && e.ValueKind == JsonValueKind.Object && e.EnumerateObject().Count() == 1 && e.TryGetProperty("a", out var a): next = a; more = true; break;
                case Newtonsoft.Json.Linq.JArray ja when kind == "array" && ja.Count == 1: next = ja[0]; more = true; break;
                case Newtonsoft.Json.Linq.JObject jo when kind == "object" && jo.Count == 1 && jo["a"] != null: next = jo["a"]; more = true; break;
                case IDictionary d when kind == "object" && d.Count == 1 && d.Contains("a"): next = d["a"]; more = true; break;
                case IList l when kind == "array" && l.Count == 1: next = l[0]; more = true; break;
            }
            if (!more) break;
            v = next;
            depth++;
        }
        var sb = new StringBuilder();
        sb.Append("{\"$nested\":\"").Append(kind).Append("\",\"depth\":").Append(depth).Append(",\"leaf\":");
        sb.Append(ProbeModel.Dump(v, typeof(object)));
        sb.Append('}');
        return sb.ToString();
    }
}
