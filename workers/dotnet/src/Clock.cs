using System.Diagnostics;
using System.Runtime.InteropServices;

namespace JsonBench.Worker;

/// <summary>
/// The worker's three clocks, read around every sample:
/// - process CPU: clock_gettime(CLOCK_PROCESS_CPUTIME_ID), the CPU time of every thread of the
///   process (user + system), the measuring clock where it answers (issue 13's engine: the samples,
///   the ratio and the stop rule's time cap are read on it, as the JavaScript worker reads
///   `process.cpuUsage()`): it counts the work .NET does for the op on other threads (background GC,
///   the tiered JIT's background compiler), which the thread clock misses, and not preemption;
/// - wall: <see cref="Stopwatch.GetTimestamp"/> (CLOCK_MONOTONIC; 1 ns ticks on .NET on Linux,
///   100 ns ticks on Mono), the figure the JavaScript worker reports;
/// - thread CPU: clock_gettime(CLOCK_THREAD_CPUTIME_ID) through P/Invoke, the CPU time of the
///   measuring thread only (user + system). Preemption on a loaded machine adds wall time, not
///   CPU time (issue 13). Work done on other threads (the background GC thread of concurrent GC,
///   the tiered JIT's background compiler) is NOT in it. One read costs ~2 µs here (a system
///   call; measured on this machine), 2 reads per ~10 ms sample.
/// </summary>
public static class Clock
{
    static readonly double NsPerTick = 1e9 / Stopwatch.Frequency;
    const int CLOCK_PROCESS_CPUTIME_ID = 2;
    const int CLOCK_THREAD_CPUTIME_ID = 3;

    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Sec; public long Nsec; }

    [DllImport("libc", SetLastError = true)]
    static extern int clock_gettime(int clockId, out Timespec ts);

    /// <summary>Whether the thread CPU clock answers (false off Linux/glibc).</summary>
    public static readonly bool HasThreadCpu = Probe();

    /// <summary>Whether the process CPU clock answers (false off Linux/glibc): then samples are read on the wall clock.</summary>
    public static readonly bool HasProcessCpu = Probe(CLOCK_PROCESS_CPUTIME_ID);

    static bool Probe(int clockId = CLOCK_THREAD_CPUTIME_ID)
    {
        try { return clock_gettime(clockId, out _) == 0; }
        catch (System.Exception) { return false; }
    }

    /// <summary>CPU time of the whole process (ns), or 0 when the clock is missing.</summary>
    public static long ProcessCpuNs()
    {
        if (!HasProcessCpu) return 0;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, out var t);
        return t.Sec * 1_000_000_000L + t.Nsec;
    }

    /// <summary>`cpu` (process CPU time) where it answers, else `wall`: the clock samples, the ratio and the time cap are read on.</summary>
    public static string Measuring => HasProcessCpu ? "cpu" : "wall";

    public static long WallTicks() => Stopwatch.GetTimestamp();

    /// <summary>A reading of the measuring clock (ns): process CPU time where it answers, else wall time (see <see cref="Measuring"/>).</summary>
    public static long MeasuringNs() => HasProcessCpu ? ProcessCpuNs() : (long)TicksToNs(Stopwatch.GetTimestamp());

    /// <summary>Milliseconds of the measuring clock since <paramref name="startNs"/> (a <see cref="MeasuringNs"/> reading).</summary>
    public static double MeasuringMsSince(long startNs) => (MeasuringNs() - startNs) / 1e6;

    /// <summary>Nanoseconds between two <see cref="WallTicks"/> readings.</summary>
    public static double TicksToNs(long ticks) => ticks * NsPerTick;

    /// <summary>CPU time of the calling thread (ns), or 0 when the clock is missing.</summary>
    public static long ThreadCpuNs()
    {
        if (!HasThreadCpu) return 0;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, out var t);
        return t.Sec * 1_000_000_000L + t.Nsec;
    }

    [StructLayout(LayoutKind.Sequential)]
    struct Rusage
    {
        public long UtimeSec, UtimeUsec, StimeSec, StimeUsec, MaxRss, IxRss, IdRss, IsRss, MinFlt, MajFlt, NSwap, InBlock, OuBlock, MsgSnd, MsgRcv, NSignals, NVcsw, NIvcsw;
    }

    [DllImport("libc", SetLastError = true)]
    static extern int getrusage(int who, out Rusage usage);
    const int RUSAGE_THREAD = 1;

    /// <summary>Whether the thread's page-fault counter answers (getrusage(RUSAGE_THREAD): Linux).</summary>
    public static readonly bool HasFaults = ProbeFaults();

    static bool ProbeFaults()
    {
        try { return getrusage(RUSAGE_THREAD, out _) == 0; }
        catch (System.Exception) { return false; }
    }

    /// <summary>
    /// Minor page faults of the calling thread so far (getrusage(RUSAGE_THREAD).ru_minflt), or 0 without
    /// the counter. A diagnostic beside each sample: memory the GC returned to the OS and touches again
    /// costs a fault per 4 KiB page, ~17 µs each in this machine's VM (measured 2026-12-01).
    /// </summary>
    public static long ThreadMinorFaults()
    {
        if (!HasFaults) return 0;
        getrusage(RUSAGE_THREAD, out var u);
        return u.MinFlt;
    }

    /// <summary>Elapsed wall time (ms) since <paramref name="startTicks"/>.</summary>
    public static double MsSince(long startTicks) => TicksToNs(Stopwatch.GetTimestamp() - startTicks) / 1e6;
}

/// <summary>
/// What the JIT has done so far: methods compiled in this process (every tier: tier-0, OSR,
/// tier-1 rejits by the background compiler), from System.Runtime.JitInfo (.NET 6+); -1 on Mono
/// and .NET Framework, which have no such counter. A round in which this still grows was timed
/// while code was being recompiled: the worker reports the count per side and round.
/// </summary>
public static class Jit
{
    public static long CompiledMethods()
    {
#if NETFRAMEWORK
        return -1;
#else
        return System.Runtime.JitInfo.GetCompiledMethodCount(currentThread: false);
#endif
    }
}
