using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.Json;
using System.Text.Json.Serialization;
using NJ = Newtonsoft.Json;

namespace JsonBench.Worker;

// The .NET types of the probes (src/probes/dotnet/catalog.ts names them by class name): DTOs as a C#
// developer writes them for each library, both libraries' attributes side by side where a probe
// asks for a wire name ([JsonPropertyName] for System.Text.Json, [JsonProperty] for Newtonsoft.Json),
// none where a probe asks what a naming policy or a default does. The source-generated contexts
// below list every type, one context per set of options (the way stj-sourcegen is configured).

/// <summary>The probe types by class name (the host's cells name them), plus `object` and `string-map`.</summary>
public static class ProbeTypes
{
    static readonly Dictionary<string, Type> ByName = typeof(ProbeTypes).Assembly.GetTypes()
        .Where(t => t.Namespace == typeof(ProbeTypes).Namespace && t.IsPublic && t.IsClass && !t.IsGenericTypeDefinition)
        .ToDictionary(t => t.Name, t => t);

    /// <summary>The type of a name. Throws FormatException for an unknown name.</summary>
    public static Type Find(string name) => name switch
    {
        "object" => typeof(object),
        "string-map" => typeof(Dictionary<string, string>),
        _ => ByName.TryGetValue(name, out var t) ? t : throw new FormatException($"the worker has no probe type \"{name}\""),
    };
}

// ---- feature: names, naming policies, converters, required and unmapped members, indentation ----

/// <summary>feature.names.property: UserId written as "id".</summary>
public sealed class ProbeRenamed
{
    [JsonPropertyName("id"), NJ.JsonProperty("id")] public long UserId { get; set; }
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
}

/// <summary>feature.naming.*: a PascalCase model with no attribute; the naming policy gives the wire names.</summary>
public sealed class ProbePerson
{
    public string? FirstName { get; set; }
    public long LastLoginAt { get; set; }
    public bool IsAdmin { get; set; }
}

/// <summary>feature.required.missing: Name required by each library's own attribute.</summary>
public sealed class ProbeRequired
{
    [JsonPropertyName("id"), NJ.JsonProperty("id")] public long Id { get; set; }
    [JsonRequired, JsonPropertyName("name"), NJ.JsonProperty("name", Required = NJ.Required.Always)] public string? Name { get; set; }
}

/// <summary>feature.additional.*: one declared member (unmapped members: the library's default, or refused by the cell's settings).</summary>
public sealed class ProbeOpen
{
    [JsonPropertyName("id"), NJ.JsonProperty("id")] public long Id { get; set; }
}

/// <summary>feature.additional.reject: System.Text.Json's [JsonUnmappedMemberHandling(Disallow)] (Newtonsoft: MissingMemberHandling.Error in the cell's settings).</summary>
[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
public sealed class ProbeClosed
{
    [JsonPropertyName("id"), NJ.JsonProperty("id")] public long Id { get; set; }
}

/// <summary>feature.indent.2.</summary>
public sealed class ProbeLayout
{
    [JsonPropertyName("id"), NJ.JsonProperty("id")] public long Id { get; set; }
    [JsonPropertyName("tags"), NJ.JsonProperty("tags")] public List<string>? Tags { get; set; }
    [JsonPropertyName("owner"), NJ.JsonProperty("owner")] public ProbeOwner? Owner { get; set; }
}

public sealed class ProbeOwner
{
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
    [JsonPropertyName("roles"), NJ.JsonProperty("roles")] public List<string>? Roles { get; set; }
}

/// <summary>feature.converter.date-format and edge.date.*: a DateTime member.</summary>
public sealed class ProbeStamp
{
    [JsonPropertyName("at"), NJ.JsonProperty("at")] public DateTime At { get; set; }
}

/// <summary>The date converter a System.Text.Json user writes for "yyyy-MM-dd HH:mm:ss" (Newtonsoft: DateFormatString).</summary>
public sealed class ProbeDateConverter : JsonConverter<DateTime>
{
    public const string Format = "yyyy-MM-dd HH:mm:ss";
    public override DateTime Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        DateTime.ParseExact(reader.GetString()!, Format, CultureInfo.InvariantCulture);
    public override void Write(Utf8JsonWriter writer, DateTime value, JsonSerializerOptions options) =>
        writer.WriteStringValue(value.ToString(Format, CultureInfo.InvariantCulture));
}

// ---- feature: polymorphism ----

/// <summary>feature.polymorphism: a "kind" discriminator, System.Text.Json's attributes (Newtonsoft has no discriminator property of its own).</summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind")]
[JsonDerivedType(typeof(KindCat), "cat")]
[JsonDerivedType(typeof(KindDog), "dog")]
public abstract class KindPet
{
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
}

public sealed class KindCat : KindPet
{
    [JsonPropertyName("meows"), NJ.JsonProperty("meows")] public bool Meows { get; set; }
}

public sealed class KindDog : KindPet
{
    [JsonPropertyName("barks"), NJ.JsonProperty("barks")] public long Barks { get; set; }
}

public sealed class ProbeKindPets
{
    [JsonPropertyName("pets"), NJ.JsonProperty("pets")] public List<KindPet>? Pets { get; set; }
}

/// <summary>
/// feature.polymorphism.type-names: each library's type names. System.Text.Json: [JsonPolymorphic] with the
/// default "$type" discriminator and a tag per derived type (a TypedPet itself carries none); Newtonsoft:
/// TypeNameHandling.All in the cell's settings (it ignores these attributes).
/// </summary>
[JsonPolymorphic]
[JsonDerivedType(typeof(TypedCat), "cat")]
[JsonDerivedType(typeof(TypedDog), "dog")]
public class TypedPet
{
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
}

public sealed class TypedCat : TypedPet
{
    [JsonPropertyName("meows"), NJ.JsonProperty("meows")] public bool Meows { get; set; }
}

public sealed class TypedDog : TypedPet
{
    [JsonPropertyName("barks"), NJ.JsonProperty("barks")] public long Barks { get; set; }
}

public sealed class ProbeTypedPets
{
    [JsonPropertyName("pets"), NJ.JsonProperty("pets")] public List<TypedPet>? Pets { get; set; }
}

/// <summary>feature.polymorphism.base-type: a concrete base class and two subclasses, no polymorphism configured.</summary>
public class PlainPet
{
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
}

public sealed class PlainCat : PlainPet
{
    [JsonPropertyName("meows"), NJ.JsonProperty("meows")] public bool Meows { get; set; }
}

public sealed class PlainDog : PlainPet
{
    [JsonPropertyName("barks"), NJ.JsonProperty("barks")] public long Barks { get; set; }
}

public sealed class ProbePlainPets
{
    [JsonPropertyName("pets"), NJ.JsonProperty("pets")] public List<PlainPet>? Pets { get; set; }
}

// ---- safety: type names from the input ----

/// <summary>safety.type-name.*: an `object` member, where a type named by the input could land.</summary>
public sealed class ProbeEnvelope
{
    [JsonPropertyName("payload"), NJ.JsonProperty("payload")] public object? Payload { get; set; }
}

/// <summary>safety.type-name.declared-base: a member of the polymorphic base type.</summary>
public sealed class ProbeTypedEnvelope
{
    [JsonPropertyName("pet"), NJ.JsonProperty("pet")] public TypedPet? Pet { get; set; }
}

/// <summary>
/// The harmless gadget of the safety probes: a type of the worker's own assembly that no DTO declares.
/// Constructing it only counts; its setter only stores. A deserializer that builds one because the input
/// named it in "$type" would build any type it can load the same way (the known TypeNameHandling risk).
/// </summary>
public sealed class ProbeGadget
{
    static int _constructed;
    /// <summary>Instances made in this process.</summary>
    public static int Constructed => _constructed;
    public ProbeGadget() { System.Threading.Interlocked.Increment(ref _constructed); }
    public string? Command { get; set; }
}

// ---- edge values ----

public sealed class ProbeNumber
{
    [JsonPropertyName("n"), NJ.JsonProperty("n")] public double N { get; set; }
}

public sealed class ProbeInteger
{
    [JsonPropertyName("n"), NJ.JsonProperty("n")] public long N { get; set; }
}

/// <summary>edge.cycle: a node whose child is itself.</summary>
public sealed class ProbeNode
{
    [JsonPropertyName("name"), NJ.JsonProperty("name")] public string? Name { get; set; }
    [JsonPropertyName("child"), NJ.JsonProperty("child")] public ProbeNode? Child { get; set; }
}

public sealed class ProbeMap
{
    [JsonPropertyName("m"), NJ.JsonProperty("m")] public Dictionary<string, double>? M { get; set; }
}

public sealed class ProbeSet
{
    [JsonPropertyName("s"), NJ.JsonProperty("s")] public HashSet<double>? S { get; set; }
}

/// <summary>edge.class.fields: public fields, no properties (System.Text.Json needs IncludeFields or [JsonInclude] for them).</summary>
public sealed class ProbeFields
{
    [JsonPropertyName("x"), NJ.JsonProperty("x")] public double X;
    [JsonPropertyName("y"), NJ.JsonProperty("y")] public double Y;
}

// ---- strings and structure ----

public sealed class ProbeString
{
    [JsonPropertyName("s"), NJ.JsonProperty("s")] public string? S { get; set; }
}

public sealed class ProbeNullable
{
    [JsonPropertyName("a"), NJ.JsonProperty("a")] public string? A { get; set; }
    [JsonPropertyName("b"), NJ.JsonProperty("b")] public double? B { get; set; }
    [JsonPropertyName("c"), NJ.JsonProperty("c")] public bool? C { get; set; }
}

public sealed class ProbeEmpty { }

public sealed class ProbeHasEmpty
{
    [JsonPropertyName("o"), NJ.JsonProperty("o")] public ProbeEmpty? O { get; set; }
}

public sealed class ProbeInts
{
    [JsonPropertyName("xs"), NJ.JsonProperty("xs")] public List<long>? Xs { get; set; }
}

public sealed class ProbeIntLists
{
    [JsonPropertyName("xs"), NJ.JsonProperty("xs")] public List<List<long>>? Xs { get; set; }
}

// ---- the source-generated contexts (stj-sourcegen), one per set of options ----

[JsonSerializable(typeof(ProbeRenamed))]
[JsonSerializable(typeof(ProbePerson))]
[JsonSerializable(typeof(ProbeRequired))]
[JsonSerializable(typeof(ProbeOpen))]
[JsonSerializable(typeof(ProbeClosed))]
[JsonSerializable(typeof(ProbeStamp))]
[JsonSerializable(typeof(ProbeKindPets))]
[JsonSerializable(typeof(ProbeTypedPets))]
[JsonSerializable(typeof(ProbePlainPets))]
[JsonSerializable(typeof(ProbeEnvelope))]
[JsonSerializable(typeof(ProbeTypedEnvelope))]
[JsonSerializable(typeof(ProbeNumber))]
[JsonSerializable(typeof(ProbeInteger))]
[JsonSerializable(typeof(ProbeNode))]
[JsonSerializable(typeof(ProbeMap))]
[JsonSerializable(typeof(ProbeSet))]
[JsonSerializable(typeof(ProbeFields))]
[JsonSerializable(typeof(ProbeString))]
[JsonSerializable(typeof(Dictionary<string, string>))]
[JsonSerializable(typeof(ProbeNullable))]
[JsonSerializable(typeof(ProbeEmpty))]
[JsonSerializable(typeof(ProbeHasEmpty))]
[JsonSerializable(typeof(ProbeInts))]
[JsonSerializable(typeof(ProbeIntLists))]
[JsonSerializable(typeof(object))]
[JsonSerializable(typeof(Dictionary<string, object>))]
[JsonSerializable(typeof(List<object>))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(bool))]
internal partial class ProbeContext : JsonSerializerContext { }

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower)]
[JsonSerializable(typeof(ProbePerson))]
internal partial class ProbeSnakeContext : JsonSerializerContext { }

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(ProbePerson))]
internal partial class ProbeCamelContext : JsonSerializerContext { }

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.KebabCaseLower)]
[JsonSerializable(typeof(ProbePerson))]
internal partial class ProbeKebabContext : JsonSerializerContext { }

[JsonSourceGenerationOptions(WriteIndented = true)]
[JsonSerializable(typeof(ProbeLayout))]
internal partial class ProbeIndentContext : JsonSerializerContext { }

[JsonSourceGenerationOptions(Converters = new[] { typeof(ProbeDateConverter) })]
[JsonSerializable(typeof(ProbeStamp))]
internal partial class ProbeDateContext : JsonSerializerContext { }
