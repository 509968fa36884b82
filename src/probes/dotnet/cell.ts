/**
 * One .NET probe side as the C# worker reads it from the probe file's `dotnet` section
 * (workers/dotnet/src/ProbeRunner.cs): written by the host from probes/dotnet/catalog.ts.
 */
export interface DotnetCell {
  /** a class of workers/dotnet/src/ProbeTypes.cs, `object` (untyped) or `string-map` (Dictionary<string, string>) */
  type: string;
  /** library settings, each library in its own terms (ProbeSettings in ProbeRunner.cs) */
  settings?: {
    naming?: 'snake' | 'camel' | 'kebab';
    dateFormat?: true;
    typeNames?: true;
    missingMembers?: 'error';
    indented?: true;
  };
  /** serialize input: the model as JSON with ProbeModel.cs's tags (cellValue writes them) */
  input?: unknown;
  /** serialize input given as JSON text (read exactly: integers beyond 2^53 kept) */
  inputText?: string;
  /** deserialize text */
  text?: string;
  /** deserialize reads what the library itself wrote for `input` (what a type round-trips to) */
  roundTrip?: true;
  /** the input (and deserialize text) is `kind`s nested `depth` deep around 1, built by the worker; a deserialized result comes back summarised */
  nested?: { kind: 'array' | 'object'; depth: number };
}
