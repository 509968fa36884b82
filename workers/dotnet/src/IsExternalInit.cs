#if NETFRAMEWORK
namespace System.Runtime.CompilerServices
{
    /// <summary>
    /// What the C# compiler needs for `init` accessors, which positional records have (a workload with
    /// `dotnet: { dto: 'record' }`): part of .NET 5+, absent from .NET Framework 4.6.2 (the Mono build).
    /// </summary>
    internal static class IsExternalInit { }
}
#endif
