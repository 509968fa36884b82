using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// Helpers of the generated canonical readers and writers (src/dotnet/dto-generator.ts). These
/// never go through a serializer under test: the reader walks a JsonElement of the wire payload
/// to build serialize inputs; the writer walks a DTO to write the model the host compares
/// deserialize results with (model names, dates as ISO 8601 UTC with milliseconds as JavaScript's
/// toISOString writes them, numbers as JSON numbers, enums as their wire strings, null as null).
/// </summary>
public static class Canon
{
    const DateTimeStyles Utc = DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal;

    public static DateTime ReadDate(JsonElement e) => DateTime.Parse(e.GetString()!, CultureInfo.InvariantCulture, Utc);

    /// <summary>An integer, from a JSON number or (numbers-from-strings) a numeric string.</summary>
    public static long ReadInt(JsonElement e) =>
        e.ValueKind == JsonValueKind.String ? long.Parse(e.GetString()!, NumberStyles.Integer, CultureInfo.InvariantCulture) : e.GetInt64();

    /// <summary>A number, from a JSON number or (numbers-from-strings) a numeric string.</summary>
    public static double ReadNum(JsonElement e) =>
        e.ValueKind == JsonValueKind.String ? double.Parse(e.GetString()!, NumberStyles.Float, CultureInfo.InvariantCulture) : e.GetDouble();

    /// <summary>A map (a record: any keys, values of one schema), keys in wire order.</summary>
    public static Dictionary<string, T> ReadMap<T>(JsonElement e, Func<JsonElement, T> value)
    {
        var map = new Dictionary<string, T>();
        foreach (var p in e.EnumerateObject()) map[p.Name] = value(p.Value);
        return map;
    }

    /// <summary>
    /// An untyped value (`unknown`, `null`, a union, an additional property) as plain .NET values
    /// both libraries serialize as JSON: objects Dictionary&lt;string, object?&gt;, arrays
    /// List&lt;object?&gt;, strings, numbers long when the literal is an integer that fits, else
    /// double (as JavaScript reads them), booleans, null.
    /// </summary>
    public static object? ReadAny(JsonElement e)
    {
        switch (e.ValueKind)
        {
            case JsonValueKind.Object:
                var o = new Dictionary<string, object?>();
                foreach (var p in e.EnumerateObject()) o[p.Name] = ReadAny(p.Value);
                return o;
            case JsonValueKind.Array:
                var a = new List<object?>(e.GetArrayLength());
                foreach (var x in e.EnumerateArray()) a.Add(ReadAny(x));
                return a;
            case JsonValueKind.String: return e.GetString();
            case JsonValueKind.Number: return e.TryGetInt64(out var l) ? l : (object)e.GetDouble();
            case JsonValueKind.True: return true;
            case JsonValueKind.False: return false;
            default: return null;
        }
    }

    /// <summary>The keys of object <paramref name="e"/> not in <paramref name="known"/> (additional properties), or null when there are none.</summary>
    public static Dictionary<string, object?>? ReadExtra(JsonElement e, HashSet<string> known)
    {
        Dictionary<string, object?>? extra = null;
        foreach (var p in e.EnumerateObject())
        {
            if (known.Contains(p.Name)) continue;
            (extra ??= new Dictionary<string, object?>())[p.Name] = ReadAny(p.Value);
        }
        return extra;
    }

    public static List<T> ReadList<T>(JsonElement e, Func<JsonElement, T> item)
    {
        var list = new List<T>(e.GetArrayLength());
        foreach (var x in e.EnumerateArray()) list.Add(item(x));
        return list;
    }

    public static void Str(Utf8JsonWriter w, string? v) { if (v is null) w.WriteNullValue(); else w.WriteStringValue(v); }
    public static void Int(Utf8JsonWriter w, long? v) { if (v is null) w.WriteNullValue(); else w.WriteNumberValue(v.Value); }
    public static void Num(Utf8JsonWriter w, double? v) { if (v is null) w.WriteNullValue(); else w.WriteNumberValue(v.Value); }
    public static void Bool(Utf8JsonWriter w, bool? v) { if (v is null) w.WriteNullValue(); else w.WriteBooleanValue(v.Value); }

    /// <summary>yyyy-MM-ddTHH:mm:ss.fffZ in UTC (a DateTime of kind Unspecified is taken as UTC, Local converted).</summary>
    public static void Date(Utf8JsonWriter w, DateTime? v)
    {
        if (v is null) { w.WriteNullValue(); return; }
        var d = v.Value.Kind == DateTimeKind.Local ? v.Value.ToUniversalTime() : v.Value;
        w.WriteStringValue(d.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture));
    }

    public static void List<T>(Utf8JsonWriter w, List<T>? v, Action<Utf8JsonWriter, T> item)
    {
        if (v is null) { w.WriteNullValue(); return; }
        w.WriteStartArray();
        foreach (var x in v) item(w, x);
        w.WriteEndArray();
    }

    public static void Map<T>(Utf8JsonWriter w, Dictionary<string, T>? v, Action<Utf8JsonWriter, T> value)
    {
        if (v is null) { w.WriteNullValue(); return; }
        w.WriteStartObject();
        foreach (var kv in v) { w.WritePropertyName(kv.Key); value(w, kv.Value); }
        w.WriteEndObject();
    }

    /// <summary>
    /// An untyped value as a deserializer left it or the canonical reader built it: System.Text.Json's
    /// JsonElement as it is; Newtonsoft's JToken, DateTime and DateTimeOffset as Newtonsoft itself writes
    /// them (so a date-like string it read as a DateTime shows as Newtonsoft would write it back); plain
    /// .NET values as JSON.
    /// </summary>
    public static void Any(Utf8JsonWriter w, object? v)
    {
        switch (v)
        {
            case null: w.WriteNullValue(); break;
            case JsonElement e: e.WriteTo(w); break;
            case Newtonsoft.Json.Linq.JToken t: w.WriteRawValue(t.ToString(Newtonsoft.Json.Formatting.None)); break;
            case string s: w.WriteStringValue(s); break;
            case bool b: w.WriteBooleanValue(b); break;
            case long l: w.WriteNumberValue(l); break;
            case int i: w.WriteNumberValue(i); break;
            case double d: w.WriteNumberValue(d); break;
            case decimal m: w.WriteNumberValue(m); break;
            // Newtonsoft reads a date-like string into an untyped member as a DateTime (DateParseHandling.DateTime,
            // its default): written as Newtonsoft writes it, so the gate sees the value the model really holds
            case DateTime dt: w.WriteRawValue(Newtonsoft.Json.JsonConvert.ToString(dt)); break;
            case DateTimeOffset dto: w.WriteRawValue(Newtonsoft.Json.JsonConvert.ToString(dto)); break;
            case IDictionary<string, object?> o:
                w.WriteStartObject();
                foreach (var kv in o) { w.WritePropertyName(kv.Key); Any(w, kv.Value); }
                w.WriteEndObject();
                break;
            case System.Collections.IList a:
                w.WriteStartArray();
                foreach (var x in a) Any(w, x);
                w.WriteEndArray();
                break;
            default: throw new FormatException("no JSON for an untyped value of type " + v.GetType());
        }
    }

    /// <summary>Additional properties after the declared ones (nothing when null).</summary>
    public static void WriteExtra(Utf8JsonWriter w, Dictionary<string, object?>? extra)
    {
        if (extra is null) return;
        foreach (var kv in extra) { w.WritePropertyName(kv.Key); Any(w, kv.Value); }
    }

    /// <summary>What the writer puts where an enum holds no declared member (e.g. 0: the property was never set).</summary>
    public static void UndefinedEnum(Utf8JsonWriter w, string type, int value) => w.WriteStringValue($"(no {type} member has value {value})");
}
