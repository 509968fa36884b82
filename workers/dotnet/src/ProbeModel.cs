using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// How a probe's values cross between the host and the C# worker without a serializer under test
/// (src/probes/dotnet/model.ts is the host's half):
/// - <see cref="Read"/>: a probe's serialize input, JSON written by the host, into an instance of the
///   probe's .NET type by reflection (members matched by model name: the C# name with a lower-case
///   first letter). Strings are read code unit by code unit from their JSON literal (a lone
///   surrogate written as \uD800 stays one, which JsonElement.GetString refuses). Tags: a double as
///   "NaN", "Infinity", "-Infinity" or "-0"; a map with any keys as {"$entries":[[k,v],…]}; an
///   instance of a subclass as {"$class":"Name",…}; {"$cycle":true} for the object being built.
/// - <see cref="Dump"/>: a deserialized result written back as ASCII JSON (every character beyond
///   U+007E escaped, so a lone surrogate survives the channel), members under their model names, an
///   instance of another class than the declared one with "$class", integers beyond ±2^53 as
///   {"$bigint":"…"}, doubles JSON cannot hold as {"$number":"NaN"}, DateTime as
///   {"$date":"&lt;round-trip form&gt;","kind":"Utc|Local|Unspecified"}; JsonElement and JToken
///   results are copied from their own text by <see cref="AsciiJson"/> (no recursion: any depth).
/// </summary>
public static class ProbeModel
{
    /// <summary>Deepest object graph <see cref="Dump"/> walks (its recursion must not overflow the stack itself).</summary>
    const int MaxDumpDepth = 2_000;

    /// <summary>The C# name with a lower-case first letter: the model name a member is matched and dumped under.</summary>
    public static string ModelName(string name) => name.Length == 0 ? name : char.ToLowerInvariant(name[0]) + name.Substring(1);

    // ---- reading the host's JSON ----

    /// <summary>The string a JSON string element holds, code unit by code unit (lone surrogates kept). Throws FormatException for a non-string.</summary>
    public static string RawString(JsonElement e)
    {
        if (e.ValueKind != JsonValueKind.String) throw new FormatException($"expected a string, got {e.ValueKind}");
        return Unescape(e.GetRawText());
    }

    /// <summary>The value of a JSON string literal (with its quotes), unescaped by code unit.</summary>
    public static string Unescape(string literal)
    {
        var sb = new StringBuilder(literal.Length);
        for (int i = 1; i < literal.Length - 1; i++)
        {
            char c = literal[i];
            if (c != '\\') { sb.Append(c); continue; }
            char k = literal[++i];
            switch (k)
            {
                case 'n': sb.Append('\n'); break;
                case 't': sb.Append('\t'); break;
                case 'r': sb.Append('\r'); break;
                case 'b': sb.Append('\b'); break;
                case 'f': sb.Append('\f'); break;
                case 'u': sb.Append((char)int.Parse(literal.Substring(i + 1, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture)); i += 4; break;
                default: sb.Append(k); break; // \" \\ \/
            }
        }
        return sb.ToString();
    }

    /// <summary>A property of a JSON object by name (names here are ASCII, so GetString is safe), or null.</summary>
    public static JsonElement? Member(JsonElement o, string name) => o.ValueKind == JsonValueKind.Object && o.TryGetProperty(name, out var v) ? v : null;

    /// <summary>
    /// The host's JSON as an instance of <paramref name="t"/> (see the class summary for the tags).
    /// Throws FormatException naming the type when a value does not fit it.
    /// </summary>
    public static object? Read(JsonElement e, Type t) => Read(e, t, null);

    static object? Read(JsonElement e, Type t, object? root)
    {
        if (e.ValueKind == JsonValueKind.Null) return null;
        var under = Nullable.GetUnderlyingType(t) ?? t;
        if (under == typeof(string)) return RawString(e);
        if (under == typeof(bool)) return e.GetBoolean();
        if (under == typeof(double)) return e.ValueKind == JsonValueKind.String ? SpecialDouble(e.GetString()!) : e.GetDouble();
        if (under == typeof(long)) return e.ValueKind == JsonValueKind.String ? long.Parse(e.GetString()!, CultureInfo.InvariantCulture) : e.GetInt64();
        if (under == typeof(int)) return e.GetInt32();
        if (under == typeof(DateTime))
            return DateTime.Parse(e.GetString()!, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal);
        if (under == typeof(object)) return ReadAny(e);
        if (IsMap(under, out var valueType))
        {
            var map = (IDictionary)Activator.CreateInstance(under)!;
            var entries = Member(e, "$entries");
            if (entries is JsonElement list)
                foreach (var pair in list.EnumerateArray()) map[RawString(pair[0])] = Read(pair[1], valueType!, root);
            else
                foreach (var p in e.EnumerateObject()) map[p.Name] = Read(p.Value, valueType!, root);
            return map;
        }
        if (IsSequence(under, out var itemType))
        {
            var items = e.EnumerateArray().Select(x => Read(x, itemType!, root)).ToList();
            if (under.IsArray)
            {
                var a = Array.CreateInstance(itemType!, items.Count);
                for (int i = 0; i < items.Count; i++) a.SetValue(items[i], i);
                return a;
            }
            var seq = Activator.CreateInstance(under)!;
            var add = under.GetMethod("Add", new[] { itemType! }) ?? throw new FormatException($"{under.Name} has no Add({itemType!.Name})");
            foreach (var x in items) add.Invoke(seq, new[] { x });
            return seq;
        }
        if (e.ValueKind != JsonValueKind.Object) throw new FormatException($"expected an object for {under.Name}, got {e.ValueKind}");
        if (Member(e, "$cycle") is JsonElement) return root ?? throw new FormatException("$cycle outside an object");
        var cls = Member(e, "$class") is JsonElement c ? ProbeTypes.Find(c.GetString()!) : under;
        var o = Activator.CreateInstance(cls, nonPublic: true)!;
        root ??= o;
        foreach (var p in e.EnumerateObject())
        {
            if (p.Name == "$class") continue;
            var m = MemberOf(cls, p.Name) ?? throw new FormatException($"{cls.Name} has no member {p.Name}");
            if (m is PropertyInfo pi) pi.SetValue(o, Read(p.Value, pi.PropertyType, root));
            else if (m is FieldInfo fi) fi.SetValue(o, Read(p.Value, fi.FieldType, root));
        }
        return o;
    }

    static double SpecialDouble(string s) => s switch
    {
        "NaN" => double.NaN,
        "Infinity" => double.PositiveInfinity,
        "-Infinity" => double.NegativeInfinity,
        "-0" => -0.0, // the literal: .NET Framework's double.Parse("-0") gives +0
        _ => double.Parse(s, CultureInfo.InvariantCulture),
    };

    /// <summary>An untyped value as plain .NET values (Dictionary, List, string, long or double, bool, null), strings code-unit exact.</summary>
    public static object? ReadAny(JsonElement e)
    {
        switch (e.ValueKind)
        {
            case JsonValueKind.Object:
                var o = new Dictionary<string, object?>();
                foreach (var p in e.EnumerateObject()) o[p.Name] = ReadAny(p.Value);
                return o;
            case JsonValueKind.Array: return e.EnumerateArray().Select(ReadAny).ToList();
            case JsonValueKind.String: return RawString(e);
            case JsonValueKind.Number: return e.TryGetInt64(out var l) ? l : (object)e.GetDouble();
            case JsonValueKind.True: return true;
            case JsonValueKind.False: return false;
            default: return null;
        }
    }

    static MemberInfo? MemberOf(Type t, string model) =>
        (MemberInfo?)t.GetProperties(BindingFlags.Public | BindingFlags.Instance).FirstOrDefault(p => ModelName(p.Name) == model && p.GetIndexParameters().Length == 0)
        ?? t.GetFields(BindingFlags.Public | BindingFlags.Instance).FirstOrDefault(f => ModelName(f.Name) == model);

    static bool IsMap(Type t, out Type? value)
    {
        value = null;
        if (!t.IsGenericType || t.GetGenericTypeDefinition() != typeof(Dictionary<,>) || t.GetGenericArguments()[0] != typeof(string)) return false;
        value = t.GetGenericArguments()[1];
        return true;
    }

    static bool IsSequence(Type t, out Type? item)
    {
        item = t.IsArray ? t.GetElementType() : t.IsGenericType && (t.GetGenericTypeDefinition() == typeof(List<>) || t.GetGenericTypeDefinition() == typeof(HashSet<>)) ? t.GetGenericArguments()[0] : null;
        return item != null;
    }

    // ---- writing results back ----

    /// <summary>A result as ASCII JSON (see the class summary). Throws InvalidOperationException past <see cref="MaxDumpDepth"/> levels.</summary>
    public static string Dump(object? v, Type declared)
    {
        var sb = new StringBuilder();
        Write(sb, v, declared, 0);
        return sb.ToString();
    }

    static void Write(StringBuilder sb, object? v, Type declared, int depth)
    {
        if (depth > MaxDumpDepth) throw new InvalidOperationException($"the result is nested over {MaxDumpDepth} levels: too deep for the worker to write back");
        switch (v)
        {
            case null: sb.Append("null"); return;
            case string s: Quote(sb, s); return;
            case bool b: sb.Append(b ? "true" : "false"); return;
            case long l: Integer(sb, l.ToString(CultureInfo.InvariantCulture), Math.Abs((double)l) > 9007199254740991); return;
            case int i: sb.Append(i.ToString(CultureInfo.InvariantCulture)); return;
            case ulong ul: Integer(sb, ul.ToString(CultureInfo.InvariantCulture), ul > 9007199254740991); return;
            case System.Numerics.BigInteger bi: Integer(sb, bi.ToString(CultureInfo.InvariantCulture), System.Numerics.BigInteger.Abs(bi) > 9007199254740991); return;
            case decimal m: sb.Append("{\"$decimal\":\"").Append(m.ToString(CultureInfo.InvariantCulture)).Append("\"}"); return;
            case double d: Double(sb, d); return;
            case float f: Double(sb, f); return;
            case DateTime dt:
                sb.Append("{\"$date\":\"").Append(dt.ToString("o", CultureInfo.InvariantCulture)).Append("\",\"kind\":\"").Append(dt.Kind).Append("\"}");
                return;
            case DateTimeOffset dto: sb.Append("{\"$dateOffset\":\"").Append(dto.ToString("o", CultureInfo.InvariantCulture)).Append("\"}"); return;
            case JsonElement e: AsciiJson.Copy(sb, e.GetRawText()); return;
            case Newtonsoft.Json.Linq.JToken t: AsciiJson.Copy(sb, t.ToString(Newtonsoft.Json.Formatting.None)); return;
            case IDictionary map:
                sb.Append('{');
                bool first = true;
                foreach (DictionaryEntry kv in map)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Quote(sb, Convert.ToString(kv.Key, CultureInfo.InvariantCulture) ?? "");
                    sb.Append(':');
                    Write(sb, kv.Value, ValueTypeOf(declared), depth + 1);
                }
                sb.Append('}');
                return;
            case IEnumerable seq:
                sb.Append('[');
                var item = ItemTypeOf(declared);
                bool firstItem = true;
                foreach (var x in seq)
                {
                    if (!firstItem) sb.Append(',');
                    firstItem = false;
                    Write(sb, x, item, depth + 1);
                }
                sb.Append(']');
                return;
        }
        var type = v.GetType();
        sb.Append('{');
        bool any = false;
        if (type != (Nullable.GetUnderlyingType(declared) ?? declared))
        {
            sb.Append("\"$class\":");
            Quote(sb, type.Name);
            any = true;
        }
        foreach (var m in type.GetMembers(BindingFlags.Public | BindingFlags.Instance).OrderBy(m => m.MetadataToken))
        {
            Type mt;
            object? value;
            if (m is PropertyInfo p && p.GetIndexParameters().Length == 0 && p.CanRead) { mt = p.PropertyType; value = p.GetValue(v); }
            else if (m is FieldInfo f) { mt = f.FieldType; value = f.GetValue(v); }
            else continue;
            if (any) sb.Append(',');
            any = true;
            Quote(sb, ModelName(m.Name));
            sb.Append(':');
            Write(sb, value, mt, depth + 1);
        }
        sb.Append('}');
    }

    static Type ValueTypeOf(Type t) => IsMap(Nullable.GetUnderlyingType(t) ?? t, out var v) ? v! : typeof(object);
    static Type ItemTypeOf(Type t) => IsSequence(Nullable.GetUnderlyingType(t) ?? t, out var i) ? i! : typeof(object);

    static void Integer(StringBuilder sb, string digits, bool beyondDouble)
    {
        if (beyondDouble) sb.Append("{\"$bigint\":\"").Append(digits).Append("\"}");
        else sb.Append(digits);
    }

    static void Double(StringBuilder sb, double d)
    {
        if (double.IsNaN(d)) sb.Append("{\"$number\":\"NaN\"}");
        else if (double.IsPositiveInfinity(d)) sb.Append("{\"$number\":\"Infinity\"}");
        else if (double.IsNegativeInfinity(d)) sb.Append("{\"$number\":\"-Infinity\"}");
        else if (d == 0 && BitConverter.DoubleToInt64Bits(d) < 0) sb.Append("-0");
        else sb.Append(d.ToString("R", CultureInfo.InvariantCulture));
    }

    /// <summary>A JSON string literal of <paramref name="s"/> in ASCII: every code unit below U+0020 or beyond U+007E as \uXXXX (lone surrogates included).</summary>
    public static void Quote(StringBuilder sb, string s)
    {
        sb.Append('"');
        foreach (char c in s)
        {
            if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < 0x20 || c > 0x7e) sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
            else sb.Append(c);
        }
        sb.Append('"');
    }
}

/// <summary>
/// Copies JSON text (a library's own writing of what it read: JsonElement's raw text, a JToken's
/// ToString) to ASCII, token by token and without recursion: characters beyond U+007E inside strings
/// become \uXXXX (the same string), whitespace is dropped, an integer beyond ±2^53 becomes
/// {"$bigint":"…"} so the host reads it exactly, and a bare word that is not JSON (Newtonsoft writes an
/// undefined token as `undefined`) becomes {"$token":"…"}. The text is otherwise trusted to be JSON.
/// </summary>
public static class AsciiJson
{
    public static void Copy(StringBuilder sb, string json)
    {
        int i = 0;
        while (i < json.Length)
        {
            char c = json[i];
            if (c == '"')
            {
                sb.Append('"');
                i++;
                while (i < json.Length && json[i] != '"')
                {
                    char s = json[i];
                    if (s == '\\') { sb.Append(s).Append(json[i + 1]); i += 2; continue; }
                    if (s < 0x20 || s > 0x7e) sb.Append("\\u").Append(((int)s).ToString("x4", CultureInfo.InvariantCulture));
                    else sb.Append(s);
                    i++;
                }
                sb.Append('"');
                i++;
            }
            else if (c == '-' || (c >= '0' && c <= '9'))
            {
                int start = i;
                while (i < json.Length && "+-.eE0123456789".IndexOf(json[i]) >= 0) i++;
                var number = json.Substring(start, i - start);
                bool integer = number.IndexOfAny(new[] { '.', 'e', 'E' }) < 0;
                var digits = number.TrimStart('-').TrimStart('0');
                bool beyond = integer && (digits.Length > 16 || (digits.Length == 16 && string.CompareOrdinal(digits, "9007199254740991") > 0));
                if (beyond) sb.Append("{\"$bigint\":\"").Append(number).Append("\"}");
                else sb.Append(number);
            }
            else if (char.IsLetter(c))
            {
                // true, false, null; any other word (Newtonsoft writes JTokenType.Undefined as `undefined`) is tagged
                int start = i;
                while (i < json.Length && char.IsLetter(json[i])) i++;
                var word = json.Substring(start, i - start);
                if (word == "true" || word == "false" || word == "null") sb.Append(word);
                else sb.Append("{\"$token\":\"").Append(word).Append("\"}");
            }
            else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') i++;
            else { sb.Append(c); i++; }
        }
    }
}
