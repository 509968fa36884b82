using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonBench.Worker;

/// <summary>
/// How a workload's payload is written, derived from its wire options and schema by the DTO
/// generator (src/dotnet/dto-generator.ts), and the serializer settings that follow from it, as
/// the .NET studies configured them.
/// </summary>
public sealed class WireSettings
{
    /// <summary>snake_case wire names: STJ JsonNamingPolicy.SnakeCaseLower, Newtonsoft SnakeCaseNamingStrategy.</summary>
    public bool SnakeCase { get; set; }
    /// <summary>2-space indentation: STJ WriteIndented, Newtonsoft Formatting.Indented (both indent by 2).</summary>
    public bool Indented { get; set; }
    /// <summary>numbers delivered as strings: STJ JsonNumberHandling.AllowReadingFromString; Newtonsoft converts by default.</summary>
    public bool NumbersFromStrings { get; set; }
    /// <summary>a discriminated union (STJ [JsonPolymorphic]): STJ AllowOutOfOrderMetadataProperties, so the tag is read wherever it stands in the object.</summary>
    public bool Polymorphic { get; set; }
    /// <summary>
    /// study 001's code (a workload's `dotnet: { settings: 'per-call' }`): `stj` and `newtonsoft` build their options
    /// object inside each call, so a fresh Newtonsoft contract resolver per call is part of the op; otherwise once per
    /// process, as a service holds them.
    /// </summary>
    public bool SettingsPerCall { get; set; }
}

/// <summary>
/// What the worker needs of one unit type <typeparamref name="U"/> (a document or record, or the
/// list of records for the `list` shape): the canonical reader of a wire unit (builds serialize
/// inputs without any serializer under test), the canonical writer of the model (the gate's
/// write-back of deserialize results, with model names), and the source-generated metadata.
/// </summary>
public sealed class Codec<U> where U : class
{
    public Codec(Func<JsonElement, U> readWire, Action<Utf8JsonWriter, U> writeModel, JsonTypeInfo<U> generated)
    {
        ReadWire = readWire; WriteModel = writeModel; Generated = generated;
    }
    public Func<JsonElement, U> ReadWire { get; }
    public Action<Utf8JsonWriter, U> WriteModel { get; }
    public JsonTypeInfo<U> Generated { get; }
}

/// <summary>Something that runs with a codec of whatever unit type a workload and shape have.</summary>
public interface ICodecVisitor
{
    void Visit<U>(Codec<U> codec, WireSettings settings) where U : class;
}

/// <summary>A generated workload module: one per workload and number view (see the generator).</summary>
public interface IWorkloadModule
{
    /// <summary>The workload id (src/workloads).</summary>
    string Workload { get; }
    /// <summary>The directions this module's DTOs serve ("serialize", "deserialize").</summary>
    IReadOnlyList<string> Directions { get; }
    WireSettings Settings { get; }
    /// <summary>Calls the visitor with the codec of a shape's unit: the record/document, or the list of records for `list`.</summary>
    void Accept(string shape, ICodecVisitor visitor);
}

/// <summary>
/// Base of every generated module: <typeparamref name="T"/> is the DTO of one unit (document or
/// record); the `list` shape's unit is <c>List&lt;T&gt;</c>, read and written element by element.
/// </summary>
public abstract class WorkloadModule<T> : IWorkloadModule where T : class
{
    public abstract string Workload { get; }
    public abstract IReadOnlyList<string> Directions { get; }
    public abstract WireSettings Settings { get; }
    protected abstract T ReadWire(JsonElement e);
    protected abstract void WriteModel(Utf8JsonWriter w, T value);
    protected abstract JsonTypeInfo<T> UnitInfo { get; }
    protected abstract JsonTypeInfo<List<T>> ListInfo { get; }

    public void Accept(string shape, ICodecVisitor visitor)
    {
        if (shape == "list")
        {
            visitor.Visit(new Codec<List<T>>(
                e => e.EnumerateArray().Select(ReadWire).ToList(),
                (w, list) => { w.WriteStartArray(); foreach (var x in list) { if (x is null) w.WriteNullValue(); else WriteModel(w, x); } w.WriteEndArray(); },
                ListInfo), Settings);
        }
        else visitor.Visit(new Codec<T>(ReadWire, WriteModel, UnitInfo), Settings);
    }
}

/// <summary>The generated modules compiled into this worker, found by reflection.</summary>
public static class Modules
{
    static readonly List<IWorkloadModule> All = typeof(Modules).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(IWorkloadModule).IsAssignableFrom(t) && t.GetConstructor(Type.EmptyTypes) != null)
        .Select(t => (IWorkloadModule)Activator.CreateInstance(t)!)
        .OrderBy(m => m.Workload, StringComparer.Ordinal)
        .ToList();

    public static IReadOnlyList<IWorkloadModule> List => All;

    /// <summary>The module for a workload and direction, or null when this build has none.</summary>
    public static IWorkloadModule? Find(string workload, string direction) =>
        All.FirstOrDefault(m => m.Workload == workload && m.Directions.Contains(direction));
}
