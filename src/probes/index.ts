import { PROBE_FAMILIES, type Probe, type ProbeFamily } from './types.js';
import { featureProbes } from './catalog/features.js';
import { edgeValueProbes } from './catalog/edge-values.js';
import { stringProbes } from './catalog/strings.js';
import { structureProbes } from './catalog/structure.js';
import { safetyProbes } from './catalog/safety.js';
import { conformanceProbes, type ConformanceSet } from './catalog/conformance.js';

/**
 * The probe catalog: one builder per family (catalog/*.ts). Conformance probes are read from a
 * folder given at run time (any folder of JSONTestSuite / json.org checker / roundtrip files);
 * the other families are built in. Ids are unique across the catalog (a test pins it).
 */
export const builtinFamilies: Readonly<Record<Exclude<ProbeFamily, 'conformance'>, () => Probe[]>> = {
  feature: featureProbes,
  edge: edgeValueProbes,
  string: stringProbes,
  structure: structureProbes,
  safety: safetyProbes,
};

export interface CatalogOptions {
  /** Families to include (default: all). */
  families?: readonly ProbeFamily[];
  /** The conformance files (read by the host: catalog/conformance-folder.ts); without them the conformance family is empty. */
  conformance?: ConformanceSet;
}

/** The probes of the selected families, in family order. Builds no input (inputs are made when a probe runs). */
export function loadCatalog(options: CatalogOptions = {}): Probe[] {
  const families = options.families ?? PROBE_FAMILIES;
  const probes: Probe[] = [];
  for (const family of families) {
    if (family === 'conformance') {
      if (options.conformance) probes.push(...conformanceProbes(options.conformance));
    } else {
      probes.push(...builtinFamilies[family]());
    }
  }
  return probes;
}

export type { Probe, ProbeFamily, Verdict, Accept, Outcome } from './types.js';
export type { ConformanceSet, ConformanceFile } from './catalog/conformance.js';
