using System;
using System.Collections.Generic;
using System.Reflection;

namespace JsonBench.Worker;

/// <summary>
/// Allocated bytes per op from <c>GC.GetAllocatedBytesForCurrentThread()</c>, the on-device
/// study's method (and BenchmarkDotNet's MemoryDiagnoser's on .NET Core): the counter is read
/// around a window of ops on the measuring thread, less an empty window read the same way. It
/// counts every managed allocation of this thread, exactly (not sampled), and nothing of other
/// threads. Called through a delegate made by reflection: the method is in .NET's and Mono's
/// corlib but not in the .NET Framework 4.6.2 reference assemblies the Mono build compiles
/// against. Windows are sized like src/measure/allocation.ts: ops double until one window lasts
/// allocWindowMinMs; then allocWindows windows; the host reports the median.
/// </summary>
public static class Allocation
{
    static readonly Func<long>? Counter = MakeCounter();

    static Func<long>? MakeCounter()
    {
        var m = typeof(GC).GetMethod("GetAllocatedBytesForCurrentThread", BindingFlags.Public | BindingFlags.Static, null, Type.EmptyTypes, null);
        return m is null ? null : (Func<long>)Delegate.CreateDelegate(typeof(Func<long>), m);
    }

    public static bool Available => Counter != null;

    /// <summary>The sentence results show next to the figure.</summary>
    public static string How(string runtime) => Counter is null
        ? $"{runtime} has no GC.GetAllocatedBytesForCurrentThread()"
        : $"GC.GetAllocatedBytesForCurrentThread() around each window, less an empty window ({runtime}; the on-device study's method)";

    static (long Bytes, int Gcs) Window(Action<int> op, int ops)
    {
        int gc0 = GC.CollectionCount(0);
        long before = Counter!();
        for (int i = 0; i < ops; i++) op(i);
        long after = Counter!();
        int gcs = GC.CollectionCount(0) - gc0;
        Sink.Drain();
        return (after - before, gcs);
    }

    /// <summary>Bytes/op of each window, GCs (gen 0 collections, every generation counted) per op, and ops per window. Throws InvalidOperationException without the counter.</summary>
    public static (List<double> WindowsBytesPerOp, double GcPerOp, int OpsPerWindow) Measure(Action<int> op, MeasurePolicy p)
    {
        if (Counter is null) throw new InvalidOperationException("no allocation counter");
        int ops = 1;
        for (;;)
        {
            long t0 = Clock.WallTicks();
            Window(op, ops);
            if (Clock.MsSince(t0) >= p.AllocWindowMinMs || ops >= 1 << 24) break;
            ops *= 2;
        }
        var windows = new List<double>();
        long gcs = 0;
        for (int w = 0; w < p.AllocWindows; w++)
        {
            var empty = Window(op, 0);
            var full = Window(op, ops);
            windows.Add(Math.Max(0, full.Bytes - empty.Bytes) / (double)ops);
            gcs += full.Gcs;
        }
        return (windows, gcs / (double)((long)ops * p.AllocWindows), ops);
    }
}
