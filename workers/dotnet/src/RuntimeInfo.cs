using System;
using System.Reflection;
using System.Runtime;
using System.Runtime.Versioning;
using System.Text.Json;

namespace JsonBench.Worker;

/// <summary>What the worker runs on, and the exact version of each library it loaded.</summary>
public static class RuntimeInfo
{
    static readonly Type? MonoRuntime = Type.GetType("Mono.Runtime");

    public static bool IsMono => MonoRuntime != null;

    /// <summary>"dotnet" or "mono" (the hello message's `runtime`).</summary>
    public static string Runtime => IsMono ? "mono" : "dotnet";

    /// <summary>Mono's display name ("6.8.0.105 (Debian …)"), or .NET's FrameworkDescription (".NET 10.0.12").</summary>
    public static string Description
    {
        get
        {
            if (IsMono) return "Mono " + (MonoRuntime!.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static)?.Invoke(null, null) as string ?? "?");
#if NETFRAMEWORK
            return ".NET Framework " + Environment.Version;
#else
            return System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription;
#endif
        }
    }

    /// <summary>Exact runtime version: Mono's "6.8.0.105", .NET's "10.0.12".</summary>
    public static string Version => IsMono ? Description.Substring(5).Split(' ')[0] : Environment.Version.ToString();

    /// <summary>The framework the worker was compiled for (".NETCoreApp,Version=v10.0", ".NETFramework,Version=v4.6.2").</summary>
    public static string TargetFramework => typeof(RuntimeInfo).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName ?? "?";

    /// <summary>
    /// "workstation, Interactive" and, on .NET (7+: GC.GetConfigurationVariables), ", LOH threshold 33554344 B,
    /// region 33554432 B, gen0 max budget 134217728 B", then the method's forced GC ("; forced full GC before each
    /// side, memory settle before the pilot": <see cref="MethodGc"/>): the size from which an object goes to the large object
    /// heap, the GC's region size and its largest gen0 budget as the GC settled them (6,291,456 B by default; the
    /// launcher's DOTNET_GCgen0size raises it; the variable itself is not among the listed values), which the
    /// launcher sets (src/runtimes/dotnet/build.ts DOTNET_WORKER_ENV) and which a result must show.
    /// </summary>
    public static string GcMode => (GCSettings.IsServerGC ? "server" : "workstation") + ", " + GCSettings.LatencyMode + LohThreshold() + "; " + MethodGc();

    /// <summary>
    /// How the method forces and settles the GC (Timing.cs): "forced full GC before each side" (or "… before each
    /// round", "no forced GC" under JSONBENCH_DOTNET_GC), then ", memory settle before the pilot" where
    /// <see cref="Timing.SettleMemory"/> runs (the thread's fault counter answers and it is not turned off).
    /// </summary>
    static string MethodGc()
    {
        string gc = Overrides.Gc == "none" ? "no forced GC" : $"forced full GC before each {Overrides.Gc}";
        return gc + (Clock.HasFaults && Overrides.Gc != "none" && !Overrides.NoMemorySettle ? ", memory settle before the pilot" : "");
    }

    static string LohThreshold()
    {
#if NETFRAMEWORK
        return "";
#else
        var vars = GC.GetConfigurationVariables();
        string Of(string key, string label) => vars.TryGetValue(key, out var v) && v is not null && v.ToString() != "0" ? $", {label} {v} B" : "";
        return Of("LOHThreshold", "LOH threshold") + Of("GCRegionSize", "region") + Of("GCGen0MaxBudget", "gen0 max budget");
#endif
    }

    /// <summary>
    /// Writes the library fields of an assembly: name, version (informational, before '+'; without one the file
    /// version: Newtonsoft.Json 9.0.1 has none, its assembly version is 9.0.0.0 and its file version 9.0.1.19813),
    /// assembly and file versions, where it was loaded from.
    /// </summary>
    public static void WriteLibrary(Utf8JsonWriter w, Assembly a)
    {
        var name = a.GetName();
        var info = a.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        var file = a.GetCustomAttribute<AssemblyFileVersionAttribute>()?.Version;
        w.WriteString("assembly", name.Name);
        w.WriteString("version", info is not null ? info.Split('+')[0] : file ?? name.Version?.ToString());
        w.WriteString("assemblyVersion", name.Version?.ToString());
        if (info != null) w.WriteString("informationalVersion", info);
        if (file != null) w.WriteString("fileVersion", file);
        w.WriteString("location", a.Location);
    }
}
