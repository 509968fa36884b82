using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using JsonBench.Worker;

namespace JsonBench.Bdn;

/// <summary>The two ops of the pair being measured (set before BenchmarkDotNet runs, in this process).</summary>
public static class Pair
{
    public static Func<object> Serializer = () => throw new InvalidOperationException("no pair");
    public static Func<object> Baseline = () => throw new InvalidOperationException("no pair");
}

/// <summary>One op per invocation: the call over every unit of the payload, as jsonbench's op; the result is returned (BenchmarkDotNet consumes it).</summary>
public class PairBenchmark
{
    [Benchmark(Baseline = true)] public object Baseline() => Pair.Baseline();
    [Benchmark] public object Serializer() => Pair.Serializer();
}

/// <summary>Builds one side's op from a generated module's codec, as the worker's Runner does (units read canonically for serialize, unit texts for deserialize).</summary>
sealed class OpBuilder : ICodecVisitor
{
    readonly IDotnetSerializer _serializer;
    readonly Payload _payload;
    readonly bool _serialize;
    public Func<object>? Op;
    public OpBuilder(IDotnetSerializer serializer, Payload payload, bool serialize) { _serializer = serializer; _payload = payload; _serialize = serialize; }

    public void Visit<U>(Codec<U> codec, WireSettings settings) where U : class
    {
        if (_serialize)
        {
            var f = _serializer.Serializer(codec, settings);
            var units = _payload.Units.Select(codec.ReadWire).ToArray();
            Op = units.Length == 1 ? () => f(units[0]) : () => { object r = ""; foreach (var u in units) r = f(u); return r; };
        }
        else
        {
            var f = _serializer.Deserializer(codec, settings);
            var texts = _payload.Texts.ToArray();
            Op = texts.Length == 1 ? () => f(texts[0]) : () => { object r = ""; foreach (var t in texts) r = f(t); return r; };
        }
    }
}

public static class Program
{
    /// <summary>
    /// jsonbench-bdn &lt;payload&gt; &lt;workload&gt; &lt;shape&gt; &lt;direction&gt; &lt;serializer&gt; &lt;baseline&gt; &lt;out.json&gt; &lt;artifacts dir&gt; [default|short]
    /// Runs BenchmarkDotNet (in-process emit toolchain, MemoryDiagnoser) on the pair and writes
    /// { serializerNs, baselineNs, serializerBytes, baselineBytes, job, bdnVersion } (means per op from its statistics).
    /// </summary>
    public static int Main(string[] args)
    {
        if (args.Length < 8) { Console.Error.WriteLine("usage: jsonbench-bdn <payload> <workload> <shape> <direction> <serializer> <baseline> <out.json> <artifacts> [default|short]"); return 2; }
        var (path, workload, shape, direction, serializer, baseline, outPath, artifacts) = (args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7]);
        var jobName = args.Length > 8 ? args[8] : "default";
        var module = Modules.Find(workload, direction) ?? throw new ArgumentException($"no generated DTOs for {workload} {direction}");
        using var payload = new Payload(File.ReadAllText(path), shape, module.Settings.Indented, path.EndsWith(".ndjson", StringComparison.Ordinal));
        Func<object> Build(string id)
        {
            var s = Serializers.Find(id) ?? throw new ArgumentException($"no .NET serializer {id}");
            var b = new OpBuilder(s, payload, direction == "serialize");
            module.Accept(shape, b);
            return b.Op!;
        }
        Pair.Serializer = Build(serializer);
        Pair.Baseline = Build(baseline);
        var job = (jobName == "short" ? Job.ShortRun : Job.Default).WithToolchain(InProcessEmitToolchain.Instance);
        var config = ManualConfig.Create(DefaultConfig.Instance).AddJob(job).AddDiagnoser(MemoryDiagnoser.Default).WithArtifactsPath(artifacts);
        var summary = BenchmarkRunner.Run<PairBenchmark>(config);
        BenchmarkDotNet.Reports.BenchmarkReport Report(string method) => summary.Reports.First(r => r.BenchmarkCase.Descriptor.WorkloadMethod.Name == method);
        var ser = Report(nameof(PairBenchmark.Serializer));
        var bas = Report(nameof(PairBenchmark.Baseline));
        if (ser.ResultStatistics == null || bas.ResultStatistics == null) { Console.Error.WriteLine("BenchmarkDotNet produced no statistics (see its log in " + artifacts + ")"); return 1; }
        var result = new Dictionary<string, object>
        {
            ["serializerNs"] = ser.ResultStatistics.Mean,
            ["baselineNs"] = bas.ResultStatistics.Mean,
            ["serializerBytes"] = ser.GcStats.GetBytesAllocatedPerOperation(ser.BenchmarkCase) ?? -1,
            ["baselineBytes"] = bas.GcStats.GetBytesAllocatedPerOperation(bas.BenchmarkCase) ?? -1,
            ["iterations"] = ser.ResultStatistics.N + bas.ResultStatistics.N,
            ["job"] = jobName,
            ["bdnVersion"] = typeof(BenchmarkRunner).Assembly.GetName().Version!.ToString(),
        };
        File.WriteAllText(outPath, JsonSerializer.Serialize(result));
        return 0;
    }
}
