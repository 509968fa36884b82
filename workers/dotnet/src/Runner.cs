using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>A failure in a named stage (load, prepare, verify, warmup, measure), reported as an `error` message.</summary>
public sealed class StageException : Exception
{
    public StageException(string stage, string? side, string message, bool unsupported = false) : base(message)
    {
        Stage = stage; Side = side; Unsupported = unsupported;
    }
    public string Stage { get; }
    public string? Side { get; }
    public bool Unsupported { get; }
}

/// <summary>
/// Runs one job as src/worker/job.ts does: load → prepare → gate → (verify: done) → copies →
/// empty op, warmup, pilot → setup → paired rounds → (with `alloc: true`, the serializer's allocation windows) → done; or, in `alloc` mode, warmup and
/// allocation windows. Differences, by design:
/// - The gate is the host's: the worker sends a `gate` message per side and payload (main and
///   variant) with what the host compares (src/dotnet/gate.ts): serialize outputs as text, or the
///   deserialized model written back canonically (generated writer, model names). The outputs
///   themselves only in `verify` mode; every mode sends their SHA-256, so the host can check that
///   a timed launch produced what the verify launch passed.
/// - Each side sends a `library` message with the assembly it really loaded.
/// - Rounds carry ns/op by the measuring clock (process CPU where it answers: setup `clock: "cpu"`), the same samples by wall time (`serializerWallNs`) and by the thread's CPU time (`serializerCpuNs`), as issue 13's engine reads the JavaScript worker's.
/// </summary>
public sealed class JobRunner : ICodecVisitor
{
    readonly WorkerJob _job;
    readonly Channel _channel;
    readonly long _started;

    public JobRunner(WorkerJob job, Channel channel, long startedTicks)
    {
        _job = job; _channel = channel; _started = startedTicks;
    }

    /// <summary>A `stage` message: the step that runs serializer code next (a launch killed at its timeout names it).</summary>
    void Mark(string stage, string? side)
    {
        _channel.Send("stage", w => { w.WriteString("stage", stage); if (side != null) w.WriteString("side", side); });
    }

    static T Stage<T>(string stage, string? side, Func<T> f)
    {
        try { return f(); }
        catch (StageException) { throw; }
        catch (Exception e) { throw new StageException(stage, side, Describe(e)); }
    }

    /// <summary>Exception type and message, with the innermost cause when it differs.</summary>
    public static string Describe(Exception e)
    {
        var inner = e;
        while (inner.InnerException != null) inner = inner.InnerException;
        var text = $"{e.GetType().Name}: {e.Message}";
        return inner == e ? text : $"{text} ({inner.GetType().Name}: {inner.Message})";
    }

    public void Visit<U>(Codec<U> codec, WireSettings settings) where U : class
    {
        var job = _job;
        Mark("load", null);
        var texts = Stage("load", null, () => new[] { File.ReadAllText(job.PayloadPath), File.ReadAllText(job.VariantPath) });
        var payloads = Stage("load", null, () => texts.Select(t => new Payload(t, job.Shape, settings.Indented, job.Ndjson)).ToArray());
        try { Run(codec, settings, payloads); }
        finally { foreach (var p in payloads) p.Dispose(); }
    }

    void Run<U>(Codec<U> codec, WireSettings settings, Payload[] payloads) where U : class
    {
        var job = _job;
        var sides = new List<(string Side, string Id)> { ("serializer", job.Serializer) };
        if (job.Baseline != null && job.Baseline != job.Serializer) sides.Add(("baseline", job.Baseline));

        // Inputs: two distinct, equal copies of the main payload's units (the DCE guard alternates them).
        object[] a, b;
        if (job.Serialize)
        {
            a = Stage("load", null, () => payloads[0].Units.Select(e => (object)codec.ReadWire(e)).ToArray());
            b = Stage("load", null, () => payloads[0].Units.Select(e => (object)codec.ReadWire(e)).ToArray());
        }
        else
        {
            a = payloads[0].Texts.Cast<object>().ToArray();
            b = payloads[0].Texts.Select(t => (object)new string(t.ToCharArray())).ToArray();
        }

        var ops = new Dictionary<string, Action<int>>();
        foreach (var (side, id) in sides)
        {
            var adapter = Serializers.Find(id)
                ?? throw new StageException("load", side, $"unknown .NET serializer \"{id}\" (this worker has: {string.Join(", ", Serializers.All.Select(s => s.Id))})");
            _channel.Send("library", w =>
            {
                w.WriteString("side", side);
                w.WriteString("serializer", id);
                w.WriteString("code", adapter.Code(job.Serialize));
                RuntimeInfo.WriteLibrary(w, adapter.Library);
            });
            Mark("prepare", side);
            if (job.Serialize)
            {
                var call = Stage("prepare", side, () => adapter.Serializer(codec, settings));
                Mark("verify", side);
                for (int k = 0; k < payloads.Length; k++)
                {
                    var units = Stage("verify", side, () => payloads[k].Units.Select(codec.ReadWire).ToList());
                    var outputs = Stage("verify", side, () => units.Select(call).ToList());
                    SendGate(side, k, outputs, payloads[k].Texts);
                }
                var ta = a.Cast<U>().ToArray();
                var tb = b.Cast<U>().ToArray();
                ops[side] = MakeOp(call, ta, tb);
            }
            else
            {
                var call = Stage("prepare", side, () => adapter.Deserializer(codec, settings));
                Mark("verify", side);
                for (int k = 0; k < payloads.Length; k++)
                {
                    var outputs = Stage("verify", side, () => payloads[k].Texts.Select(t => Canonical(codec, call(t))).ToList());
                    SendGate(side, k, outputs, payloads[k].Texts);
                }
                var ta = a.Cast<string>().ToArray();
                var tb = b.Cast<string>().ToArray();
                ops[side] = MakeOp(call, ta, tb);
            }
        }
        if (job.Mode == "verify") { Done(false); return; }

        var p = job.Policy;
        Mark("warmup", null);
        if (job.Mode == "alloc")
        {
            var w0 = Stage("warmup", "serializer", () => Timing.Warmup(ops["serializer"], p));
            // tier-1 code may allocate less than tier 0 (.NET 10 allocates some objects on the stack): count the code that is timed
            Stage("warmup", "serializer", () => Timing.SettleJit(ops["serializer"], p, w0.Ops));
            SendAlloc(ops["serializer"], p);
            Done(false);
            return;
        }

        var empty = MakeEmptyOp(a, b);
        // compiled before the pilot: Mono JITs the op on its first call, and a first one-op sample that outlasts the
        // sample target left the pilot at 1 op, so the empty op read as the clock's own cost (~4 µs of process-CPU reads)
        Timing.RunSample(empty, 1_000);
        int emptyOps = Timing.Pilot(empty, p);
        double emptyNs = double.PositiveInfinity;
        for (int k = 0; k < 5; k++) emptyNs = Math.Min(emptyNs, Timing.RunSample(empty, emptyOps).Ns);

        var warm = new Dictionary<string, (int Ops, double Ms)>();
        var settled = new Dictionary<string, (int Ops, double Ms, bool Quiet)>();
        var perSample = new Dictionary<string, int>();
        foreach (var (side, _) in sides)
        {
            warm[side] = Stage("warmup", side, () => Timing.Warmup(ops[side], p));
            settled[side] = Stage("warmup", side, () => Timing.SettleJit(ops[side], p, warm[side].Ops));
        }
        // the pilots after both sides settled: the second side's settling must not run inside the first's samples
        var targetMs = new Dictionary<string, double>();
        var memory = new Dictionary<string, (int Probes, double Ms, bool Quiet)>();
        foreach (var (side, _) in sides)
        {
            // the pilot in the rounds' state: after a forced GC, on memory the GC has reused (Timing.SettleMemory)
            memory[side] = Stage("warmup", side, () => Timing.SettleMemory(ops[side], p));
            if (Overrides.Gc != "none" && !Overrides.NoMemorySettle) Timing.FullGc();
            var (n, ms) = Stage("warmup", side, () => Timing.PilotAmortised(ops[side], p));
            perSample[side] = n; targetMs[side] = ms;
        }
        // rounds run with the longer of the two sides' sample targets (the round length and its cut rule follow it)
        var roundPolicy = p.WithSampleTarget(targetMs.Values.Max());
        bool paired = ops.ContainsKey("baseline");
        _channel.Send("setup", w =>
        {
            w.WriteStartObject("opsPerSample");
            w.WriteNumber("serializer", perSample["serializer"]);
            w.WriteNumber("baseline", paired ? perSample["baseline"] : 0);
            w.WriteEndObject();
            w.WriteStartObject("warmup");
            w.WriteNumber("serializerOps", warm["serializer"].Ops);
            w.WriteNumber("serializerMs", warm["serializer"].Ms);
            w.WriteNumber("baselineOps", paired ? warm["baseline"].Ops : 0);
            w.WriteNumber("baselineMs", paired ? warm["baseline"].Ms : 0);
            w.WriteEndObject();
            w.WriteNumber("emptyNsPerOp", emptyNs);
            // the clock the rounds' samples (serializerNs/baselineNs) are read on: process CPU where it answers (as the JavaScript worker's)
            if (Clock.HasProcessCpu) w.WriteString("clock", "cpu");
            // .NET only: the sample target the rounds ran with (Timing.PilotAmortised)
            w.WriteNumber("sampleTargetMs", roundPolicy.SampleTargetMs);
            // .NET only: per side, a settle stage's count, ms (measuring clock) and whether it went quiet
            void WriteSettle(string name, string count, Func<string, (long Count, double Ms, bool Quiet)> of)
            {
                w.WriteStartObject(name);
                foreach (var (side, _) in sides)
                {
                    var (n, ms, quiet) = of(side);
                    w.WriteStartObject(side);
                    w.WriteNumber(count, n);
                    w.WriteNumber("ms", ms);
                    w.WriteBoolean("quiet", quiet);
                    w.WriteEndObject();
                }
                w.WriteEndObject();
            }
            // the wait for tiered compilation to finish after warmup (Timing.SettleJit)
            WriteSettle("jitSettle", "ops", side => (settled[side].Ops, settled[side].Ms, settled[side].Quiet));
            // the probes until the op faulted no page after a forced GC (Timing.SettleMemory; absent without the fault counter)
            if (Clock.HasFaults) WriteSettle("memorySettle", "probes", side => (memory[side].Probes, memory[side].Ms, memory[side].Quiet));
        });
        var result = Stage("measure", null, () => Timing.MeasureRounds(
            new TimedSide(ops["serializer"], perSample["serializer"]),
            paired ? new TimedSide(ops["baseline"], perSample["baseline"]) : null,
            roundPolicy,
            (round, index) => _channel.Send("round", w =>
            {
                w.WriteNumber("round", index);
                // by the measuring clock; with the CPU clock the same samples by wall time beside them, as the JavaScript worker sends them
                WriteArray(w, "serializerNs", round.Serializer.Select(s => s.Ns));
                WriteArray(w, "baselineNs", round.Baseline.Select(s => s.Ns));
                if (Clock.HasProcessCpu)
                {
                    WriteArray(w, "serializerWallNs", round.Serializer.Select(s => s.WallNs));
                    WriteArray(w, "baselineWallNs", round.Baseline.Select(s => s.WallNs));
                }
                if (Clock.HasThreadCpu)
                {
                    WriteArray(w, "serializerCpuNs", round.Serializer.Select(s => s.CpuNs));
                    WriteArray(w, "baselineCpuNs", round.Baseline.Select(s => s.CpuNs));
                }
                if (Clock.HasFaults)
                {
                    // diagnostic (the lab's scripts read it; results do not keep it): minor page faults per op of the measuring thread
                    WriteArray(w, "serializerFaults", round.Serializer.Select(s => s.Faults));
                    WriteArray(w, "baselineFaults", round.Baseline.Select(s => s.Faults));
                }
                w.WriteNumber("serializerJitMethods", round.SerializerJitMethods);
                w.WriteNumber("baselineJitMethods", round.BaselineJitMethods);
                w.WriteNumber("serializerGcs", round.SerializerGcs);
                w.WriteNumber("baselineGcs", round.BaselineGcs);
            })));
        // issue 13's engine: the allocation windows in the timing process, after the rounds (the code timed is the code counted)
        if (job.Alloc) SendAlloc(ops["serializer"], p);
        Done(result.Noisy);
    }

    /// <summary>The serializer side's allocation windows (Allocation.Measure) as an `alloc` message; `n/a` where the counter is missing.</summary>
    void SendAlloc(Action<int> op, MeasurePolicy p)
    {
        if (!Allocation.Available)
        {
            _channel.Send("alloc", w => { w.WriteStartArray("windowsBytesPerOp"); w.WriteEndArray(); w.WriteNumber("gcPerOp", 0); w.WriteNumber("opsPerWindow", 0); w.WriteString("method", "n/a"); w.WriteString("how", Allocation.How(RuntimeInfo.Description)); });
            return;
        }
        var m = Stage("measure", "serializer", () => Allocation.Measure(op, p));
        _channel.Send("alloc", w =>
        {
            WriteArray(w, "windowsBytesPerOp", m.WindowsBytesPerOp);
            w.WriteNumber("gcPerOp", m.GcPerOp);
            w.WriteNumber("opsPerWindow", m.OpsPerWindow);
            w.WriteString("method", "exact");
            w.WriteString("how", Allocation.How(RuntimeInfo.Description));
        });
    }

    /// <summary>An op over the units: one call for single/list, the loop over records for many (the result goes to the sink).</summary>
    static Action<int> MakeOp<TIn, TOut>(Func<TIn, TOut> call, TIn[] a, TIn[] b) where TOut : class
    {
        if (a.Length == 1)
        {
            var x = a[0];
            var y = b[0];
            return i => { Sink.Slot = null; Sink.Slot = call((i & 1) == 0 ? x : y); };
        }
        return i =>
        {
            var xs = (i & 1) == 0 ? a : b;
            for (int j = 0; j < xs.Length; j++) { Sink.Slot = null; Sink.Slot = call(xs[j]); }
        };
    }

    static Action<int> MakeEmptyOp(object[] a, object[] b) => i => { Sink.Slot = null; Sink.Slot = (i & 1) == 0 ? a : b; };

    /// <summary>The model written back by the generated canonical writer (model names, ISO dates, numbers as numbers).</summary>
    static string Canonical<U>(Codec<U> codec, U? value) where U : class
    {
        var ms = new MemoryStream();
        using (var w = new Utf8JsonWriter(ms))
        {
            if (value is null) w.WriteNullValue(); else codec.WriteModel(w, value);
        }
        return Encoding.UTF8.GetString(ms.ToArray());
    }

    void SendGate(string side, int payloadIndex, List<string> outputs, List<string> inputTexts)
    {
        string digest;
        using (var sha = SHA256.Create())
        {
            var bytes = Encoding.UTF8.GetBytes(string.Join("\n", outputs));
            digest = string.Concat(sha.ComputeHash(bytes).Select(x => x.ToString("x2")));
        }
        long inputBytes = inputTexts.Sum(t => (long)Encoding.UTF8.GetByteCount(t));
        _channel.Send("gate", w =>
        {
            w.WriteString("side", side);
            w.WriteString("payload", payloadIndex == 0 ? "main" : "variant");
            w.WriteString("direction", _job.Direction);
            w.WriteNumber("units", outputs.Count);
            w.WriteNumber("inputBytes", inputBytes);
            w.WriteString("digest", digest);
            if (_job.Mode == "verify")
            {
                w.WriteStartArray("outputs");
                foreach (var o in outputs) w.WriteStringValue(o);
                w.WriteEndArray();
            }
        });
    }

    void Done(bool noisy) => _channel.Send("done", w =>
    {
        w.WriteBoolean("noisy", noisy);
        w.WriteNumber("elapsedMs", Clock.MsSince(_started));
        w.WriteNumber("checksum", Sink.Checksum);
    });

    static void WriteArray(Utf8JsonWriter w, string name, IEnumerable<double> xs)
    {
        w.WriteStartArray(name);
        foreach (var x in xs) w.WriteNumberValue(x);
        w.WriteEndArray();
    }
}
