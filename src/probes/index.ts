import type { Probe, ProbeFamily } from './types.js';
import { featureProbes } from './catalog/features.js';
import { edgeValueProbes } from './catalog/edge-values.js';
import { stringProbes } from './catalog/strings.js';
import { structureProbes } from './catalog/structure.js';
import { safetyProbes } from './catalog/safety.js';
import { conformanceProbes } from './catalog/conformance.js';

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
  /** Folder of conformance files; without it the conformance family is empty. */
  conformanceDir?: string;
}

/** The probes of the selected families, and conformance files that could not become probes. */
export function loadCatalog(options: CatalogOptions = {}): { probes: Probe[]; skipped: { file: string; reason: string }[] } {
  const families = options.families ?? ['feature', 'edge', 'string', 'structure', 'safety', 'conformance'];
  const probes: Probe[] = [];
  let skipped: { file: string; reason: string }[] = [];
  for (const family of families) {
    if (family === 'conformance') {
      if (!options.conformanceDir) continue;
      const c = conformanceProbes(options.conformanceDir);
      probes.push(...c.probes);
      skipped = c.skipped;
    } else {
      probes.push(...builtinFamilies[family]());
    }
  }
  return { probes, skipped };
}

export type { Probe, ProbeFamily, Verdict, ProbeResult, Accept, Outcome } from './types.js';
