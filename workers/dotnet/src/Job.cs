using System;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>Measurement settings of one launch (MeasurePolicy in src/worker/protocol.ts; times in ms).</summary>
public sealed class MeasurePolicy
{
    public int WarmupMinOps;
    public double WarmupMinMs;
    public double WarmupMaxMs;
    public double SampleTargetMs;
    public int SamplesPerRound;
    public int MinRounds;
    public int MaxRounds;
    public double TargetRelativeError;
    public double Confidence;
    public double TimeCapMs;
    public int AllocWindows;
    public double AllocWindowMinMs;

    /// <summary>A copy with another sample target (ms).</summary>
    public MeasurePolicy WithSampleTarget(double ms)
    {
        var copy = (MeasurePolicy)MemberwiseClone();
        copy.SampleTargetMs = ms;
        return copy;
    }
}

/// <summary>What one launch is asked to do (WorkerJob in src/worker/protocol.ts).</summary>
public sealed class WorkerJob
{
    public string Workload = "";
    public int Size;
    /// <summary>single | list | many</summary>
    public string Shape = "";
    /// <summary>serialize | deserialize</summary>
    public string Direction = "";
    public string CaseClass = "";
    public string Serializer = "";
    public string? Baseline;
    /// <summary>time | alloc | verify</summary>
    public string Mode = "";
    /// <summary>`time` jobs: also take the serializer's allocation windows in this process after the rounds (issue 13's engine)</summary>
    public bool Alloc;
    public string PayloadPath = "";
    /// <summary>The per-launch channel key (hex) from the start message; null when the host sent none.</summary>
    public string? Key;
    public MeasurePolicy Policy = new MeasurePolicy();

    public bool Serialize => Direction == "serialize";

    /// <summary>The variant payload beside the main one (variantPathOf in protocol.ts).</summary>
    public string VariantPath => PayloadPath.EndsWith(".json", StringComparison.Ordinal)
        ? PayloadPath.Substring(0, PayloadPath.Length - 5) + ".variant.json"
        : PayloadPath.EndsWith(".ndjson", StringComparison.Ordinal)
            ? PayloadPath.Substring(0, PayloadPath.Length - 7) + ".variant.ndjson"
            : PayloadPath;
    /// <summary>A user's records as NDJSON (src/payload: the file's own bytes, one record per line).</summary>
    public bool Ndjson => PayloadPath.EndsWith(".ndjson", StringComparison.Ordinal);

    /// <summary>
    /// Parses the start message line. Throws FormatException naming the field when the line is
    /// not a start message of this protocol version or a field is missing.
    /// </summary>
    public static WorkerJob ParseStartLine(string line)
    {
        using var doc = JsonDocument.Parse(line);
        var root = doc.RootElement;
        if (!root.TryGetProperty("protocol", out var p) || p.ValueKind != JsonValueKind.Number || p.GetInt32() != Channel.Version)
            throw new FormatException($"expected a start message of protocol {Channel.Version}");
        if (Str(root, "type") != "start") throw new FormatException("expected a message of type start");
        var j = Obj(root, "job");
        string? key = root.TryGetProperty("key", out var k) && k.ValueKind == JsonValueKind.String ? k.GetString() : null;
        var pol = Obj(j, "policy");
        return new WorkerJob
        {
            Workload = Str(j, "workload"),
            Size = (int)Num(j, "size"),
            Shape = Str(j, "shape"),
            Direction = Str(j, "direction"),
            CaseClass = Str(j, "caseClass"),
            Serializer = Str(j, "serializer"),
            Baseline = j.TryGetProperty("baseline", out var b) && b.ValueKind == JsonValueKind.String ? b.GetString() : null,
            Mode = Str(j, "mode"),
            Alloc = j.TryGetProperty("alloc", out var al) && al.ValueKind == JsonValueKind.True,
            PayloadPath = Str(j, "payloadPath"),
            Key = key,
            Policy = new MeasurePolicy
            {
                WarmupMinOps = (int)Num(pol, "warmupMinOps"),
                WarmupMinMs = Num(pol, "warmupMinMs"),
                WarmupMaxMs = Num(pol, "warmupMaxMs"),
                SampleTargetMs = Num(pol, "sampleTargetMs"),
                SamplesPerRound = (int)Num(pol, "samplesPerRound"),
                MinRounds = (int)Num(pol, "minRounds"),
                MaxRounds = (int)Num(pol, "maxRounds"),
                TargetRelativeError = Num(pol, "targetRelativeError"),
                Confidence = Num(pol, "confidence"),
                TimeCapMs = Num(pol, "timeCapMs"),
                AllocWindows = (int)Num(pol, "allocWindows"),
                AllocWindowMinMs = Num(pol, "allocWindowMinMs"),
            },
        };
    }

    /// <summary>The start line's <c>key</c> when the line is JSON with a string key, else null (for signing an error about the rest).</summary>
    public static string? KeyOf(string line)
    {
        try
        {
            using var doc = JsonDocument.Parse(line);
            return doc.RootElement.ValueKind == JsonValueKind.Object && doc.RootElement.TryGetProperty("key", out var k) && k.ValueKind == JsonValueKind.String ? k.GetString() : null;
        }
        catch (JsonException) { return null; }
    }

    static JsonElement Obj(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Object ? v : throw new FormatException($"start message: {name} must be an object");

    static string Str(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString()! : throw new FormatException($"start message: {name} must be a string");

    static double Num(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : throw new FormatException($"start message: {name} must be a number");
}
