// Counts what a policy plans on the seed workloads: groups, measured cases, baseline-alone cases.
// node build/studies/group-launch/count-plan.js
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { planCases } from '../../src/plan/plan.js';
import { policies } from '../../src/config/policies.js';
import { helpRequested } from '../lib/lib.js';

helpRequested(
  'node build/studies/group-launch/count-plan.js: cases, groups and payloads the quick and default policies plan (about 2 s)',
);
const all = await serializers.loadAll();
for (const name of ['quick', 'default'] as const) {
  const groups = planCases(
    {
      workloads: await workloads.loadAll(),
      serializers: all,
      directions: ['serialize', 'deserialize'],
      policy: policies[name],
    },
    all,
  );
  // `status` since the plan's decisions became a union (the script read `unsupported`/`fault` flags
  // that no longer exist, and so counted every case as measured)
  const measured = groups.flat().filter((c) => c.status === 'planned');
  const baseAlone = measured.filter((c) => c.serializer === c.baseline);
  const paired = measured.length - baseAlone.length;
  const measuredGroups = groups.filter((g) => g.some((c) => c.status === 'planned' && c.serializer !== c.baseline));
  const sizes = [...new Set(measured.map((c) => `${c.workload}/${c.size}`))];
  console.log(
    `${name}: ${groups.flat().length} cases planned, ${measured.length} measured (${baseAlone.length} baseline alone, ${paired} paired), ${measuredGroups.length} groups with a pair; payloads ${sizes.join(' ')}`,
  );
}
