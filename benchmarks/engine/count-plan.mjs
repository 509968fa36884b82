// Counts what a policy plans on the seed workloads: groups, measured cases, baseline-alone cases.
const { workloads } = await import('../../build/src/workloads/index.js');
const { serializers } = await import('../../build/src/serializers/index.js');
const { planCases } = await import('../../build/src/plan/plan.js');
const { policies } = await import('../../build/src/config/policies.js');
const all = await serializers.loadAll();
for (const name of ['quick', 'default']) {
  const groups = planCases(
    {
      workloads: await workloads.loadAll(),
      serializers: all,
      directions: ['serialize', 'deserialize'],
      policy: policies[name],
    },
    all,
  );
  const measured = groups.flat().filter((c) => !c.unsupported && !c.fault);
  const baseAlone = measured.filter((c) => c.serializer === c.baseline);
  const paired = measured.length - baseAlone.length;
  const measuredGroups = groups.filter((g) => g.some((c) => !c.unsupported && c.serializer !== c.baseline));
  const sizes = [...new Set(measured.map((c) => `${c.workload}/${c.size}`))];
  console.log(
    `${name}: ${groups.flat().length} cases planned, ${measured.length} measured (${baseAlone.length} baseline alone, ${paired} paired), ${measuredGroups.length} groups with a pair; payloads ${sizes.join(' ')}`,
  );
}
