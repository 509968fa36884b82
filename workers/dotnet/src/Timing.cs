using System;
using System.Collections.Generic;
using System.Linq;

namespace JsonBench.Worker;

/// <summary>
/// Diagnostic departures from the lab's method, for experiments only (see workers/dotnet/README.md,
/// "The forced GC and allocation-heavy serializers"); the worker names any that is set in `hello`
/// (`methodOverrides`), so a result made with one is never mistaken for a default one.
/// - JSONBENCH_DOTNET_GC=side|round|none: a forced full GC before each side of a round (the
///   JavaScript worker's method, the .NET worker's until 2026-12-02), once at the start of each round
///   (the .NET worker's method now: <see cref="Timing.MeasureRounds"/>), or never
///   (JSONBENCH_DOTNET_NO_ROUND_GC=1 is `none`);
/// - JSONBENCH_DOTNET_SETTLE_SAMPLES=n: n untimed samples after that GC, before the timed ones;
/// - JSONBENCH_DOTNET_JIT_SETTLE=0, JSONBENCH_DOTNET_MEMORY_SETTLE=0, JSONBENCH_DOTNET_MIN_OPS=n: below.
/// </summary>
public static class Overrides
{
    /// <summary>"round" (the method), "side" or "none".</summary>
    public static readonly string Gc = Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_NO_ROUND_GC") == "1" ? "none"
        : Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_GC") is string g && (g == "side" || g == "none") ? g : "round";
    public static readonly int? SettleSamples = int.TryParse(Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_SETTLE_SAMPLES"), out var n) && n >= 0 ? n : null;
    /// <summary>JSONBENCH_DOTNET_SETTLE_FAULTS=n: after that GC (and any settle samples), untimed samples until one faults under one page per op, at most n.</summary>
    public static readonly int? SettleFaults = int.TryParse(Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_SETTLE_FAULTS"), out var sf) && sf > 0 ? sf : null;
    /// <summary>JSONBENCH_DOTNET_MIN_OPS=n: the fewest ops per sample the pilot aims at (default <see cref="Timing.MinOpsPerSample"/>; 0 or 1: the JavaScript worker's rule alone).</summary>
    public static readonly int? MinOps = int.TryParse(Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_MIN_OPS"), out var m) && m >= 0 ? m : null;
    /// <summary>JSONBENCH_DOTNET_JIT_SETTLE=0: no wait for the JIT to go quiet after warmup (the method before it existed).</summary>
    public static readonly bool NoJitSettle = Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_JIT_SETTLE") == "0";
    /// <summary>JSONBENCH_DOTNET_MEMORY_SETTLE=0: no probing until the op faults no page after a forced GC (<see cref="Timing.SettleMemory"/>) and no forced GC before the pilot (the method before they existed).</summary>
    public static readonly bool NoMemorySettle = Environment.GetEnvironmentVariable("JSONBENCH_DOTNET_MEMORY_SETTLE") == "0";

    /// <summary>"gc=round, settleSamples=3", or null when the method is the lab's.</summary>
    public static string? Describe()
    {
        var parts = new List<string>();
        if (Gc != "round") parts.Add($"gc={Gc}");
        if (SettleSamples != null) parts.Add($"settleSamples={SettleSamples}");
        if (SettleFaults != null) parts.Add($"settleFaults={SettleFaults}");
        if (NoJitSettle) parts.Add("jitSettle=0");
        if (NoMemorySettle) parts.Add("memorySettle=0");
        if (MinOps != null) parts.Add($"minOps={MinOps}");
        return parts.Count == 0 ? null : string.Join(", ", parts);
    }
}

/// <summary>Wall and thread-CPU time per op of one sample (ns).</summary>
public readonly struct Sample
{
    public Sample(double wallNs, double cpuNs, double processCpuNs, double faults = 0) { WallNs = wallNs; CpuNs = cpuNs; ProcessCpuNs = processCpuNs; Faults = faults; }
    /// <summary>minor page faults per op of the measuring thread (diagnostic; 0 without the counter)</summary>
    public double Faults { get; }
    public double WallNs { get; }
    /// <summary>the measuring thread's CPU time per op</summary>
    public double CpuNs { get; }
    /// <summary>the process's CPU time per op (every thread)</summary>
    public double ProcessCpuNs { get; }
    /// <summary>ns/op by the measuring clock (<see cref="Clock.Measuring"/>): process CPU where it answers, else wall</summary>
    public double Ns => Clock.HasProcessCpu ? ProcessCpuNs : WallNs;
}

/// <summary>A finished round: raw samples of both sides (baseline empty when unpaired).</summary>
public sealed class Round
{
    public List<Sample> Serializer { get; } = new List<Sample>();
    public List<Sample> Baseline { get; } = new List<Sample>();
    /// <summary>Methods the JIT compiled while each side's samples ran (-1: the runtime has no counter).</summary>
    public long SerializerJitMethods { get; set; }
    public long BaselineJitMethods { get; set; }
    /// <summary>Garbage collections (any generation) while each side's samples ran.</summary>
    public int SerializerGcs { get; set; }
    public int BaselineGcs { get; set; }
}

/// <summary>One side of a paired measurement.</summary>
public sealed class TimedSide
{
    public TimedSide(Action<int> op, int opsPerSample) { Op = op; OpsPerSample = opsPerSample; }
    public Action<int> Op { get; }
    public int OpsPerSample { get; }
}

/// <summary>
/// Warmup, pilot and paired rounds: a line-for-line port of src/measure/timing.ts, so the .NET
/// and JavaScript workers measure by one method (same stop rule, same round shape). The stop
/// rule reads wall-clock samples, as the JavaScript worker's does today.
/// </summary>
public static class Timing
{
    /// <summary>Runs <paramref name="ops"/> iterations; returns wall and thread-CPU ns per op. The sink is drained after the timed loop.</summary>
    public static Sample RunSample(Action<int> op, int ops)
    {
        long f0 = Clock.ThreadMinorFaults();
        long p0 = Clock.ProcessCpuNs();
        long c0 = Clock.ThreadCpuNs();
        long t0 = Clock.WallTicks();
        for (int i = 0; i < ops; i++) op(i);
        long t1 = Clock.WallTicks();
        long c1 = Clock.ThreadCpuNs();
        long p1 = Clock.ProcessCpuNs();
        long f1 = Clock.ThreadMinorFaults();
        Sink.Drain();
        return new Sample(Clock.TicksToNs(t1 - t0) / ops, (double)(c1 - c0) / ops, (double)(p1 - p0) / ops, (double)(f1 - f0) / ops);
    }

    /// <summary>
    /// Runs the op until warmupMinOps ops and warmupMinMs have both passed, or warmupMaxMs (after ≥ 1 op),
    /// on the measuring clock (process CPU time where it answers, as src/measure/timing.ts `warmup`: a
    /// loaded machine then warms up as much code, not as much waiting). Returns ops and ms of that clock.
    /// </summary>
    public static (int Ops, double Ms) Warmup(Action<int> op, MeasurePolicy p)
    {
        long start = Clock.MeasuringNs();
        int ops = 0;
        for (;;)
        {
            op(ops++);
            double ms = Clock.MeasuringMsSince(start);
            if ((ops >= p.WarmupMinOps && ms >= p.WarmupMinMs) || ms >= p.WarmupMaxMs)
            {
                Sink.Drain();
                return (ops, ms);
            }
        }
    }

    /// <summary>
    /// TC_CallCountThreshold of .NET's tiered compilation: a method is rejitted at tier 1 after this
    /// many calls (docs/design/features/tiered-compilation.md in dotnet/runtime; default 30).
    /// </summary>
    public const int TierUpCalls = 30;
    /// <summary>How long the JIT must have compiled nothing (any thread) before timing starts: 2.5 × TC_CallCountingDelayMs (100 ms), the delay tier-1 promotion waits after the last tier-0 activity.</summary>
    public const double JitQuietMs = 250;

    /// <summary>
    /// After warmup, on a runtime with tiered compilation (.NET; Mono has no counter and no tiers):
    /// runs the op until it has run at least <see cref="TierUpCalls"/> times in all (with
    /// <paramref name="opsSoFar"/>: so the op's own entry has been promoted), and the JIT compiled no
    /// method for <see cref="JitQuietMs"/> and 3 ops; at most <c>5 × warmupMaxMs</c> within 1–10 s.
    /// Without it a 50 ms op is timed while tier 0 code is still being replaced (seen here: methods
    /// compiled in 9 of 10 rounds of users/10000, Newtonsoft ÷ STJ 6.5× instead of the 1.8× seen with
    /// tiering off). BenchmarkDotNet has a Jitting stage for the same reason (EngineJitStage).
    /// Returns the ops and ms (measuring clock) spent and whether the JIT went quiet (false: the cap was hit). The cap and
    /// the quiet time are read on the measuring clock (process CPU time where it answers: the background
    /// compiler's work is in it, and time the process spent waiting for a core is not).
    /// </summary>
    public static (int Ops, double Ms, bool Quiet) SettleJit(Action<int> op, MeasurePolicy p, int opsSoFar)
    {
        long count = Jit.CompiledMethods();
        if (count < 0 || Overrides.NoJitSettle) return (0, 0, count >= 0 ? false : true);
        double capMs = Math.Min(Math.Max(5 * p.WarmupMaxMs, 1_000), 10_000);
        long start = Clock.MeasuringNs();
        long wallStart = Clock.WallTicks();
        long quietFrom = start;
        int ops = 0, quietOps = 0;
        for (;;)
        {
            op(ops++);
            quietOps++;
            long now = Jit.CompiledMethods();
            if (now != count) { count = now; quietFrom = Clock.MeasuringNs(); quietOps = 0; }
            double ms = Clock.MeasuringMsSince(start);
            bool quiet = opsSoFar + ops >= TierUpCalls && quietOps >= 3 && Clock.MeasuringMsSince(quietFrom) >= JitQuietMs;
            // a starved process (CPU time barely moving) stops at 5 × the cap of wall time, as MeasureRounds does
            if (quiet || ms >= capMs || Clock.MsSince(wallStart) >= 5 * capMs)
            {
                Sink.Drain();
                return (ops, ms, quiet);
            }
        }
    }

    /// <summary>
    /// After the JIT settle, where the thread's page-fault counter answers (Linux): probes the op as the rounds
    /// will run it, a forced full GC (<see cref="FullGc"/>) then twice a side's share of a round (2 × samplesPerRound ×
    /// sampleTargetMs of the measuring clock, at least 3 ops: the pilot after it, whose samples add up to about four
    /// times the target, and a side's samples in a round both stay on memory the probe touched), until a probe
    /// faults no page, at most <c>5 × warmupMaxMs</c> within 1–10 s. Why: in a fresh process the GC hands out gen0
    /// memory the process never touched (a 128 MiB budget with the launcher's DOTNET_GCgen0size), so an op's every
    /// new 4 KiB page faults (~17 µs here) until the GC reuses memory: weather-station deserialize by Newtonsoft
    /// (3,984 B/op) read ~28 µs/op with 1 fault/op in the pilot after a forced GC and ~8 µs with none in the rounds,
    /// and the pilot chose ops per sample from the faulting rate (125–160 where ~1,000 fill the target).
    /// Returns probes run, ms (measuring clock) and whether a probe ran without a fault (false: the cap was hit).
    /// </summary>
    public static (int Probes, double Ms, bool Quiet) SettleMemory(Action<int> op, MeasurePolicy p)
    {
        if (!Clock.HasFaults || Overrides.Gc == "none" || Overrides.NoMemorySettle) return (0, 0, !Clock.HasFaults);
        double capMs = Math.Min(Math.Max(5 * p.WarmupMaxMs, 1_000), 10_000);
        double probeMs = 2 * p.SamplesPerRound * p.SampleTargetMs;
        long start = Clock.MeasuringNs();
        long wallStart = Clock.WallTicks();
        int probes = 0;
        for (;;)
        {
            FullGc();
            probes++;
            long f0 = Clock.ThreadMinorFaults();
            long t0 = Clock.MeasuringNs();
            int ops = 0;
            while (ops < 3 || Clock.MeasuringMsSince(t0) < probeMs) op(ops++);
            long faults = Clock.ThreadMinorFaults() - f0;
            Sink.Drain();
            double ms = Clock.MeasuringMsSince(start);
            if (faults == 0) return (probes, ms, true);
            if (ms >= capMs || Clock.MsSince(wallStart) >= 5 * capMs) return (probes, ms, false);
        }
    }

    /// <summary>
    /// Pilot: a port of src/measure/timing.ts `pilot` (the JavaScript worker's rule; keep the two alike).
    /// Doubles ops per sample (or jumps near the target once a sample lasts over 0.5 ms) until one sample
    /// lasts sampleTargetMs, then takes <see cref="PilotConfirmations"/> more samples of as many ops, each
    /// of which must last at least <see cref="PilotConfirmFraction"/> of the target (only one when a single
    /// op reached it: an op that long cannot be split); when one falls short the pilot goes on from that
    /// sample's rate. Why (timing.ts): a single sample lengthened by a one-off (a GC, a compile) otherwise
    /// fixes a far too short sample for the whole launch; one confirming sample was not enough (5 of 56
    /// quiet-machine launches of weather-station serialize still took 287–702 ops where the rest took
    /// ~2,000–3,000). A sample's length is the lesser of its measuring-clock and wall times (process CPU
    /// time also counts the background compiler and GC threads, wall time also counts preemption).
    /// Returns ops per sample (1 to 2^30).
    /// </summary>
    public static int Pilot(Action<int> op, MeasurePolicy p)
    {
        const int maxOps = 1 << 30;
        bool Reaches(double nsPerOp, int n) => nsPerOp * n / 1e6 >= p.SampleTargetMs || n >= maxOps;
        // close to the target once a sample was long enough to be read, else double
        int Next(int n, double sampleMs) => (int)Math.Min(maxOps, sampleMs > PilotReadableMs
            ? Math.Max(n * 2.0, Math.Ceiling(n * p.SampleTargetMs * PilotOvershoot / sampleMs))
            : n * 2.0);
        double Length(int n) { var s = RunSample(op, n); return Math.Min(s.Ns, s.WallNs); }
        int ops = 1;
        for (;;)
        {
            int n = ops;
            double nsPerOp = Length(n);
            if (!Reaches(nsPerOp, n)) { ops = Next(n, nsPerOp * n / 1e6); continue; }
            if (n >= maxOps) return n;
            bool confirmed = true;
            for (int k = 0; k < (n == 1 ? 1 : PilotConfirmations); k++)
            {
                double againMs = Length(n) * n / 1e6;
                if (againMs < p.SampleTargetMs * PilotConfirmFraction) { ops = Next(n, againMs); confirmed = false; break; }
            }
            if (confirmed) return n;
        }
    }

    /// <summary>Confirming samples the pilot takes after the first that reaches the target (src/measure/timing.ts `pilot`: two).</summary>
    public const int PilotConfirmations = 2;
    /// <summary>Share of the sample target a confirming sample must last (src/measure/timing.ts `pilot`: half).</summary>
    public const double PilotConfirmFraction = 0.5;
    /// <summary>A sample longer than this (ms) is read to jump near the target (src/measure/timing.ts `pilot`'s `next`).</summary>
    public const double PilotReadableMs = 0.5;
    /// <summary>The jump aims this far past the target (src/measure/timing.ts `pilot`'s `next`: 1.1).</summary>
    public const double PilotOvershoot = 1.1;

    /// <summary>A full, blocking collection (with finalizers run and a second pass for what they freed).</summary>
    public static void FullGc()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    /// <summary>The fewest ops a sample should hold when that fits in <see cref="SampleCeilingMs"/> (see <see cref="PilotAmortised"/>).</summary>
    public const int MinOpsPerSample = 20;
    /// <summary>The longest sample <see cref="PilotAmortised"/> asks for (ms).</summary>
    public const double SampleCeilingMs = 100;

    /// <summary>
    /// Ops per sample for the .NET worker: the pilot's (samples of sampleTargetMs), raised to
    /// <see cref="MinOpsPerSample"/> ops when a sample would hold fewer, the sample then lasting up to
    /// <see cref="SampleCeilingMs"/>. Why: on .NET an allocation-heavy op on a large payload (users/10000:
    /// Newtonsoft serialize, 7 MB/op) triggers a costly collection every few ops, most often right after
    /// the forced full GC before each side; with one or two ops per sample a sample either holds that
    /// collection (~30 ms of thread CPU) or not (~5 ms), and per-round medians of two or three such samples
    /// flip between the two. Measured here (load ~19, users/10000 list serialize, Newtonsoft ÷ STJ by
    /// thread CPU, two launches each): 10 ms samples 6.55 and 4.93; 100 ms samples 1.26 and 2.05;
    /// no forced GC and 500 ms samples (BenchmarkDotNet's iteration time) 1.30. Samples of at least 20 ops
    /// amortise the collections as BenchmarkDotNet's iterations do, while ops of microseconds keep the
    /// lab's 10 ms samples (they already hold thousands of ops). Returns ops per sample and the target used.
    /// </summary>
    public static (int Ops, double TargetMs) PilotAmortised(Action<int> op, MeasurePolicy p)
    {
        int ops = Pilot(op, p);
        int min = Overrides.MinOps ?? MinOpsPerSample;
        if (ops >= min) return (ops, p.SampleTargetMs);
        double opMs = RunSample(op, ops).Ns / 1e6;
        double target = Math.Min(SampleCeilingMs, Math.Max(p.SampleTargetMs, min * opMs));
        return (Math.Max(ops, (int)Math.Ceiling(target / Math.Max(opMs, 1e-6))), target);
    }

    /// <summary>
    /// Paired rounds (ABBA…): each round a forced full GC, then up to samplesPerRound samples of one
    /// side and the same of the other, the order alternating, so each side runs first (right after
    /// the GC) in half the rounds and second (on the first side's garbage) in the other half. The
    /// JavaScript worker forces a GC before each side; on .NET that GC, after a side that allocates
    /// little (System.Text.Json), gave back gen0 memory that Newtonsoft (7 MB/op on users/10000) then
    /// faulted in again (88 faults/op, ~17 µs each here) in the rounds where it followed two STJ sides:
    /// per-round ratios alternated between two levels and the launch's median between launches
    /// (bench/dotnet-spread.ts, 2026-12-02, load 11–16, 8 interleaved launches per arm, three batches:
    /// users/10000 Newtonsoft ÷ STJ ratio CV 10.8 / 4.9 / 4.8% with a GC per side, 4.0 / 1.8 / 3.2%
    /// with one per round, 0 faults/op after round 0; mean 1.65–1.76 against 1.57–1.61, and the
    /// steady state without forced GCs in 500 ms samples read 1.61; workers/dotnet/README.md).
    /// JSONBENCH_DOTNET_GC=side restores the per-side GC. The stop rule is the engine's
    /// (src/measure/timing.ts measureRounds, issue 13): after minRounds, stop once the relative
    /// standard error of the launch's estimate (<see cref="Stats.MedianRelativeError"/>) is under
    /// targetRelativeError: for a paired case the median of its per-round ratios (each round's median
    /// ÷ the baseline's, by the measuring clock), for a side alone the median of its per-round
    /// medians. Else stop at maxRounds, or once timeCapMs of the measuring clock (process CPU where it
    /// answers) is spent, or 5 × that of wall time (a starved process): `noisy`.
    /// </summary>
    public static (bool Noisy, int Rounds) MeasureRounds(TimedSide serializer, TimedSide? baseline, MeasurePolicy p, Action<Round, int> onRound)
    {
        long start = Clock.WallTicks();
        long cpuStart = Clock.ProcessCpuNs();
        var estimates = new List<double>();
        double roundMs = p.SamplesPerRound * p.SampleTargetMs;
        int settle = Overrides.SettleSamples ?? 0;
        (long Jit, int Gcs) Side(TimedSide side, List<Sample> into)
        {
            if (Overrides.Gc == "side") FullGc();
            for (int k = 0; k < settle; k++) RunSample(side.Op, side.OpsPerSample);
            for (int k = 0; k < (Overrides.SettleFaults ?? 0) && RunSample(side.Op, side.OpsPerSample).Faults >= 1; k++) { }
            long jit0 = Jit.CompiledMethods();
            int gc0 = GC.CollectionCount(0);
            double spentMs = 0;
            while (into.Count < p.SamplesPerRound)
            {
                var s = RunSample(side.Op, side.OpsPerSample);
                into.Add(s);
                spentMs += s.Ns * side.OpsPerSample / 1e6;
                if (side.OpsPerSample == 1 && spentMs >= roundMs) break;
            }
            return (jit0 < 0 ? -1 : Jit.CompiledMethods() - jit0, GC.CollectionCount(0) - gc0);
        }
        for (int r = 0; r < p.MaxRounds; r++)
        {
            var round = new Round();
            if (Overrides.Gc == "round") FullGc();
            (long Jit, int Gcs) s, b = (0, 0);
            if (baseline is null) s = Side(serializer, round.Serializer);
            else if (r % 2 == 0) { s = Side(serializer, round.Serializer); b = Side(baseline, round.Baseline); }
            else { b = Side(baseline, round.Baseline); s = Side(serializer, round.Serializer); }
            round.SerializerJitMethods = s.Jit; round.SerializerGcs = s.Gcs;
            round.BaselineJitMethods = b.Jit; round.BaselineGcs = b.Gcs;
            onRound(round, r);
            double sm = Stats.Median(round.Serializer.Select(x => x.Ns));
            estimates.Add(baseline is null ? sm : sm / Stats.Median(round.Baseline.Select(x => x.Ns)));
            if (r + 1 < p.MinRounds) continue;
            if (Stats.MedianRelativeError(estimates) < p.TargetRelativeError) return (false, r + 1);
            double spentMs = Clock.HasProcessCpu ? (Clock.ProcessCpuNs() - cpuStart) / 1e6 : Clock.MsSince(start);
            if (spentMs >= p.TimeCapMs || (Clock.HasProcessCpu && Clock.MsSince(start) >= 5 * p.TimeCapMs)) return (true, r + 1);
        }
        return (true, p.MaxRounds);
    }
}
