// Q3: where ajv JTD's prepare() time goes (CPU ms per step), with and without schema validation.
// node build/studies/ajv-prepare/ajv-compile.js [workload] ['{"validateSchema":false}']
// Imported dynamically (type-checked all the same): the import times are part of the answer.
import { helpRequested } from '../lib/lib.js';

helpRequested(
  `node build/studies/ajv-prepare/ajv-compile.js [workload] ['{"validateSchema":false}']: CPU ms per step of ajv JTD's prepare (about 1 s)`,
);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const c0 = cpu();
const { workloads } = await import('../../src/workloads/index.js');
const { unitView } = await import('../../src/workloads/unit.js');
const { wireSchema } = await import('../../src/workloads/schema.js');
const c1 = cpu();
const AjvJtd = (await import('ajv/dist/jtd.js')).default.default;
const { toJtd } = await import('../../src/serializers/ajv-jtd.js');
const w = unitView(await workloads.load(process.argv[2] ?? 'users'), 'list');
const schema = toJtd(wireSchema(w.schema, w.wire?.naming)).schema;
const c2 = cpu();
const opts = JSON.parse(process.argv[3] ?? '{}');
const ajv = new AjvJtd(opts);
const c3 = cpu();
ajv.compileSerializer(schema);
const c4 = cpu();
new AjvJtd(opts).compileSerializer(schema);
const c5 = cpu();
ajv.compileParser(schema);
const c6 = cpu();
console.log(
  `${JSON.stringify(opts)} CPU ms: workload import ${(c1 - c0).toFixed(0)}, ajv import ${(c2 - c1).toFixed(0)}, new Ajv ${(c3 - c2).toFixed(0)}, compileSerializer ${(c4 - c3).toFixed(0)}, again on a new instance ${(c5 - c4).toFixed(0)}, compileParser ${(c6 - c5).toFixed(0)}; whole process ${cpu().toFixed(0)}`,
);
