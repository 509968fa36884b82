import { PROBE_FAMILIES, type Probe, type ProbeFamily } from './types.js';
import { featureProbes } from './catalog/features.js';
import { edgeValueProbes } from './catalog/edge-values.js';
import { stringProbes } from './catalog/strings.js';
import { structureProbes } from './catalog/structure.js';
import { safetyProbes } from './catalog/safety.js';
import { conformanceProbes, type ConformanceSet } from './catalog/conformance.js';
import { payloadProbes, type PayloadProbeSet } from './catalog/payload.js';
import type { DotnetCell } from './dotnet/cell.js';

/**
 * The probe catalog: one builder per family (catalog/*.ts). Conformance probes are read from a
 * folder given at run time (any folder of JSONTestSuite / json.org checker / roundtrip files);
 * the other families are built in. Ids are unique across the catalog (a test pins it).
 */
export const builtinFamilies: Readonly<Record<Exclude<ProbeFamily, 'conformance' | 'payload'>, () => Probe[]>> =
  Object.freeze({
    feature: featureProbes,
    edge: edgeValueProbes,
    string: stringProbes,
    structure: structureProbes,
    safety: safetyProbes,
  });

export interface CatalogOptions {
  /** Families to include (default: all). */
  families?: readonly ProbeFamily[];
  /** The conformance files (read by the host: catalog/conformance-folder.ts); without them the conformance family is empty. */
  conformance?: ConformanceSet;
  /** A run's payloads and schemas (catalog/payload.ts); without them the payload family is empty. */
  payload?: readonly PayloadProbeSet[];
}

/** What the host hands a probe worker as data (run/probe-pass.ts writes it, worker/probe-job.ts reads it). */
export interface ProbeData {
  conformance: ConformanceSet | null;
  payload: PayloadProbeSet[];
  /** the .NET probes' cells by probe id (read by the C# worker only; probes/dotnet/catalog.ts) */
  dotnet?: Record<string, DotnetCell>;
}

/** The probes of the selected families, in family order. Builds no input (inputs are made when a probe runs). */
export function loadCatalog(options: CatalogOptions = {}): Probe[] {
  const families = options.families ?? PROBE_FAMILIES;
  const probes: Probe[] = [];
  for (const family of families) {
    if (family === 'conformance') {
      if (options.conformance) probes.push(...conformanceProbes(options.conformance));
    } else if (family === 'payload') {
      if (options.payload) probes.push(...payloadProbes(options.payload));
    } else {
      probes.push(...builtinFamilies[family]());
    }
  }
  return probes;
}

export type { Probe, ProbeFamily, Verdict, Accept, Outcome } from './types.js';
export type { ConformanceSet, ConformanceFile } from './catalog/conformance.js';
export type { PayloadProbeSet } from './catalog/payload.js';
