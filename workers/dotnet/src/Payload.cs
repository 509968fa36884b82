using System;
using System.Collections.Generic;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// One payload file (the host writes it once: <c>JSON.stringify(wire, null, indent)</c>, see
/// src/plan/payloads.ts) cut into the units one op handles, as src/workloads/unit.ts does:
/// `single` and `list` have one unit (the whole document or array), `many` one per record.
/// Deserialize inputs are the units' texts: for single/list the file text itself; for many each
/// record's raw text in the file, less one level of indentation (which makes it exactly
/// <c>JSON.stringify(record, null, indent)</c>, renderUnit's text: JSON strings hold no raw
/// newlines, so removing the indent after each newline touches layout only).
/// </summary>
/// A user's NDJSON payload (`ndjson`) is cut as src/workloads/unit.ts readUnits
/// does: `many` has one unit per non-blank line (the line's own text), `list` one array made of
/// the lines joined by commas.
public sealed class Payload : IDisposable
{
    readonly List<JsonDocument> _docs = new List<JsonDocument>();
    static readonly JsonDocumentOptions Options = new JsonDocumentOptions { MaxDepth = 256 };
    public List<JsonElement> Units { get; } = new List<JsonElement>();
    public List<string> Texts { get; } = new List<string>();

    /// <summary>Throws FormatException when a `many` payload is not an array.</summary>
    public Payload(string text, string shape, bool indented, bool ndjson = false)
    {
        if (ndjson)
        {
            var lines = new List<string>();
            foreach (var raw in text.Split('\n'))
            {
                var line = raw.EndsWith("\r", StringComparison.Ordinal) ? raw.Substring(0, raw.Length - 1) : raw;
                if (line.Trim().Length > 0) lines.Add(line);
            }
            if (shape == "many")
            {
                foreach (var line in lines) { var d = JsonDocument.Parse(line, Options); _docs.Add(d); Units.Add(d.RootElement); Texts.Add(line); }
                return;
            }
            if (shape != "list") throw new FormatException($"records (NDJSON): shape \"{shape}\" needs one document");
            text = "[" + string.Join(",", lines) + "]";
        }
        var doc = JsonDocument.Parse(text, Options);
        _docs.Add(doc);
        var root = doc.RootElement;
        if (shape != "many")
        {
            Units.Add(root);
            Texts.Add(text);
            return;
        }
        if (root.ValueKind != JsonValueKind.Array) throw new FormatException("shape \"many\" needs a workload whose value is an array of records");
        foreach (var e in root.EnumerateArray())
        {
            Units.Add(e);
            var raw = e.GetRawText();
            Texts.Add(indented ? raw.Replace("\n  ", "\n") : raw);
        }
    }

    public void Dispose() { foreach (var d in _docs) d.Dispose(); }
}
