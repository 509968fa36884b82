import type { DotnetCodeShape } from './types.js';

/**
 * A workload's .NET code shape in words, for reasons and reports: "positional records with Guid ids,
 * settings built per call"; "classes, settings shared" when none is set (the generator's default).
 */
export function describeDotnetShape(w: { dotnet?: DotnetCodeShape }): string {
  const dto =
    w.dotnet?.dto === 'record' ? 'positional records with Guid ids, bound through the constructor' : 'classes';
  const settings = w.dotnet?.settings === 'per-call' ? 'settings built per call' : 'settings shared';
  return `${dto}, ${settings}`;
}
