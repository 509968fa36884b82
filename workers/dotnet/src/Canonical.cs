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

    /// <summary>What the writer puts where an enum holds no declared member (e.g. 0: the property was never set).</summary>
    public static void UndefinedEnum(Utf8JsonWriter w, string type, int value) => w.WriteStringValue($"(no {type} member has value {value})");
}
