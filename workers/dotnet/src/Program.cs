using System;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>
/// The .NET worker: one process per case launch, speaking protocol 2 (src/worker/protocol.ts: signed lines, see <see cref="Channel"/>).
/// Reads one StartMessage line on stdin, sends `hello`, then runs the job (<see cref="JobRunner"/>),
/// streaming messages on fd 3 (<see cref="Channel"/>); exits 0 after `done` or `error`.
/// <c>jsonbench-worker --probe</c> instead prints one JSON line on stdout describing the runtime,
/// the libraries, the compiled workload modules and a few t quantiles (for detection and tests).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        long started = Clock.WallTicks();
        if (args.Contains("--probe")) { Console.Out.WriteLine(Probe()); return 0; }
        var channel = new Channel();
        WorkerJob job = null!;
        ProbeJob? probeJob = null;
        string? line = null;
        try
        {
            line = Console.In.ReadLine() ?? throw new FormatException("no start message on stdin");
            // a probe job (src/probes/dotnet/): ProbeRunner.cs
            if (ProbeJob.IsProbe(line)) probeJob = ProbeJob.Parse(line); else job = WorkerJob.ParseStartLine(line);
            var key = probeJob != null ? probeJob.Key : job.Key;
            if (key != null) channel.UseKey(key);
        }
        catch (Exception e)
        {
            // signed when the key could be read at all (the host rejects unsigned lines); stderr in any case
            Console.Error.WriteLine("jsonbench-worker: " + e.Message);
            try { var key = line == null ? null : WorkerJob.KeyOf(line); if (key != null) channel.UseKey(key); } catch (FormatException) { }
            channel.Send("error", w => { w.WriteString("stage", "load"); w.WriteString("message", "worker: " + e.Message); });
            return 2;
        }
        channel.Send("hello", w =>
        {
            w.WriteString("runtime", RuntimeInfo.Runtime);
            w.WriteString("version", RuntimeInfo.Version);
            w.WriteBoolean("gc", true);
            w.WriteString("description", RuntimeInfo.Description);
            w.WriteString("targetFramework", RuntimeInfo.TargetFramework);
            w.WriteString("gcMode", RuntimeInfo.GcMode);
            w.WriteBoolean("threadCpuClock", Clock.HasThreadCpu);
            w.WriteNumber("stopwatchFrequency", System.Diagnostics.Stopwatch.Frequency);
            var overrides = Overrides.Describe();
            if (overrides != null) w.WriteString("methodOverrides", overrides);
        });
        if (probeJob != null) { ProbeRunner.Run(probeJob, channel, started); return 0; }
        try
        {
            var module = Modules.Find(job.Workload, job.Direction)
                ?? throw new StageException("load", null, $"workload \"{job.Workload}\" has no generated .NET DTOs for {job.Direction} in this worker build (it has: {string.Join(", ", Modules.List.Select(m => m.Workload).Distinct())})");
            module.Accept(job.Shape, new JobRunner(job, channel, started));
        }
        catch (Exception e)
        {
            var se = e as StageException ?? new StageException("measure", null, JobRunner.Describe(e));
            channel.Send("error", w =>
            {
                w.WriteString("stage", se.Stage);
                if (se.Side != null) w.WriteString("side", se.Side);
                w.WriteString("message", se.Message);
                if (se.Unsupported) w.WriteBoolean("unsupported", true);
            });
        }
        return 0;
    }

    static string Probe()
    {
        var ms = new MemoryStream();
        using (var w = new Utf8JsonWriter(ms))
        {
            w.WriteStartObject();
            w.WriteString("runtime", RuntimeInfo.Runtime);
            w.WriteString("version", RuntimeInfo.Version);
            w.WriteString("description", RuntimeInfo.Description);
            w.WriteString("targetFramework", RuntimeInfo.TargetFramework);
            w.WriteString("gcMode", RuntimeInfo.GcMode);
            w.WriteString("os", Environment.OSVersion.ToString());
            w.WriteNumber("cores", Environment.ProcessorCount);
            w.WriteBoolean("threadCpuClock", Clock.HasThreadCpu);
            w.WriteBoolean("allocationCounter", Allocation.Available);
            w.WriteNumber("stopwatchFrequency", System.Diagnostics.Stopwatch.Frequency);
            w.WriteStartArray("serializers");
            foreach (var s in Serializers.All)
            {
                w.WriteStartObject();
                w.WriteString("id", s.Id);
                RuntimeInfo.WriteLibrary(w, s.Library);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteStartArray("workloads");
            foreach (var m in Modules.List)
            {
                w.WriteStartObject();
                w.WriteString("workload", m.Workload);
                w.WriteStartArray("directions");
                foreach (var d in m.Directions) w.WriteStringValue(d);
                w.WriteEndArray();
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteStartObject("tCritical999");
            foreach (var dof in new[] { 1, 2, 4, 9, 19, 49, 199 }) w.WriteNumber(dof.ToString(), Stats.TCritical(0.999, dof));
            w.WriteEndObject();
            w.WriteEndObject();
        }
        return Encoding.UTF8.GetString(ms.ToArray());
    }
}
