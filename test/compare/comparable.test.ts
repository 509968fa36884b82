import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparabilityOf } from '../../src/compare/comparable.js';
import { results as fixtureResults } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/** A results file like the fixture, with its environment's timer resolution and its serialize op set. */
function run(timerResolutionNs: number, serializeTo: 'bytes' | 'string' = 'bytes'): ResultsFile {
  const r = fixtureResults();
  return {
    ...r,
    environment: { ...r.environment, timerResolutionNs },
    policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo } },
  };
}

test('sub-microsecond timer resolutions never make runs incomparable (the measured step moved 40 ↔ 89 ns between runs on one machine); coarse clocks more than 2× apart still do', () => {
  assert.deepEqual(
    comparabilityOf(run(89), run(40)).filter((x) => x.what === 'clock'),
    [],
  );
  assert.deepEqual(
    comparabilityOf(run(100_000), run(5_000)).map((x) => x.message),
    ['timer resolution 100000 ns → 5000 ns'],
  );
});

test('runs whose serialize op differs (--serialize-to bytes vs string) are not comparable, and say why', () => {
  assert.deepEqual(
    comparabilityOf(run(40, 'bytes'), run(40, 'string')).map((x) => x.message),
    ['serialize op bytes → string (--serialize-to): the serialize cases time different work'],
  );
  assert.deepEqual(comparabilityOf(run(40, 'bytes'), run(40, 'bytes')), []);
});

/** A .NET target record as a run writes it (runtimes/dotnet.ts), with its GC settings, flags and build as given. */
function dotnetTarget(
  gcMode: string,
  flags: string[] = ['DOTNET_GCgen0size=10000000'],
  sdkVersion = '10.0.401',
): ResultsFile['targets'][number] {
  return {
    id: 'dotnet',
    kind: 'dotnet',
    platform: 'dotnet',
    runtime: 'dotnet',
    version: '10.0.12 (SDK 10.0.401)',
    engine: 'CoreCLR',
    engineVersion: '10.0.12',
    flags,
    probe: { gcMode, sdkVersion },
    build: {
      command: 'dotnet build -c Release -p:WorkerFramework=net10.0',
      framework: 'net10.0',
      sdkVersion,
      buildMs: 1,
      cached: true,
      logPath: '/tmp/build.log',
      workloads: [],
    },
  };
}
const withTargets = (targets: ResultsFile['targets']): ResultsFile => {
  const r = run(40);
  return { ...r, targets: [...r.targets, ...targets] };
};

test('two runs whose .NET GC settings, worker flags or worker build differ are not comparable, and say what changed (attack session: they compared silently)', () => {
  const quiet = 'workstation, Interactive, LOH threshold 33554344 B, region 33554432 B, gen0 max budget 134217728 B';
  const base = withTargets([dotnetTarget(quiet)]);
  assert.deepEqual(comparabilityOf(base, withTargets([dotnetTarget(quiet)])), []);
  assert.deepEqual(
    comparabilityOf(base, withTargets([dotnetTarget('workstation, Interactive', [])])).map(
      (x) => `${x.what}: ${x.message}`,
    ),
    [
      'runtime: target dotnet: worker flags DOTNET_GCgen0size=10000000 → none',
      `runtime: target dotnet: GC settings "${quiet}" → "workstation, Interactive": the GC's work inside an op changed`,
    ],
  );
  assert.deepEqual(
    comparabilityOf(base, withTargets([dotnetTarget(quiet, undefined, '10.0.500')]))
      .map((x) => x.message)
      .filter((m) => m.includes('build')),
    [
      'target dotnet: worker build dotnet build -c Release -p:WorkerFramework=net10.0 (net10.0, SDK 10.0.401) → dotnet build -c Release -p:WorkerFramework=net10.0 (net10.0, SDK 10.0.500)',
    ],
  );
});

test("a JavaScript target's worker flags are checked per target, as the host's are (node@22 with other V8 flags)", () => {
  const node22 = (flags: string[]): ResultsFile['targets'][number] => ({
    id: 'node@22',
    kind: 'node-version',
    runtime: 'node',
    version: '22.12.0',
    engine: 'V8',
    engineVersion: '12.4',
    flags,
    probe: {},
  });
  assert.deepEqual(
    comparabilityOf(
      withTargets([node22(['--expose-gc'])]),
      withTargets([node22(['--expose-gc', '--max-semi-space-size=16'])]),
    ).map((x) => x.message),
    ['target node@22: worker flags --expose-gc → --expose-gc --max-semi-space-size=16'],
  );
});

test('a load change names which run had the busier machine, whichever way the load moved (it said "a busier machine" when the head was quieter)', () => {
  const at = (load: number): ResultsFile => {
    const r = fixtureResults();
    return {
      ...r,
      environment: {
        ...r.environment,
        cores: 2,
        loadAverage: { ...r.environment.loadAverage, start: [load, load, load] },
      },
    };
  };
  assert.deepEqual(
    comparabilityOf(at(18.1), at(8.6))
      .filter((x) => x.what === 'load')
      .map((x) => x.message),
    ['Load 18.1 → 8.6 on 2 cores (the base ran busier)'],
  );
  assert.match(comparabilityOf(at(2), at(9.7)).find((x) => x.what === 'load')!.message, /\(the head ran busier\)/);
});

test('a case whose payload bytes changed (a file replaced in place) makes the runs not comparable', () => {
  const base = fixtureResults();
  const head = structuredClone(base);
  const c = head.cases.find((x) => x.payload?.sha256)!;
  c.payload = { ...c.payload, sha256: 'f'.repeat(64) };
  const payload = comparabilityOf(base, head).filter((x) => x.what === 'payload');
  assert.equal(payload.length, 1);
  assert.match(
    payload[0].message,
    /^the payload of 1 case changed \(sha256 \w{12}… → ffffffffffff… for .+\): the same case id times other bytes$/,
  );
  assert.deepEqual(
    comparabilityOf(base, structuredClone(base)).filter((x) => x.what === 'payload'),
    [],
  );
});

/** A payload record for the fixture's first workload, with its schema as given (a `run --payload` writes one per workload). */
function withSchema(r: ResultsFile, schema: { source: string; file?: string; sha256?: string }): ResultsFile {
  const workload = r.cases[0].workload;
  return {
    ...r,
    payloads: [
      {
        workload,
        file: 'orders.json',
        kind: 'document',
        bytes: 83613,
        sha256: '527e9d15200728aa5e5b7cd475335c7db0ca75b1defc4a9c28ed4aa11c4d7bed',
        units: 1,
        payloads: [],
        schema: { ...schema, unconverted: [] },
        findings: [],
      },
    ],
  };
}

test('the same payload bytes measured with another schema (inferred vs --schema, or an edited schema) are not comparable (nu7: "fast-json-stringify time −76% faster")', () => {
  const r = fixtureResults();
  const workload = r.cases[0].workload;
  const inferred = withSchema(r, { source: 'inferred', sha256: 'a'.repeat(64) });
  const given = withSchema(r, { source: 'json-schema', file: 'orders.flat.schema.json', sha256: 'b'.repeat(64) });
  assert.deepEqual(
    comparabilityOf(inferred, given).map((x) => [x.what, x.message]),
    [
      [
        'schema',
        `the schema of ${workload} changed: inferred → json-schema orders.flat.schema.json: its schema-driven serializers were built from another schema, so the same bytes time other code`,
      ],
    ],
  );
  // the same file edited between the runs: only the hash tells
  const edited = withSchema(r, { source: 'json-schema', file: 'orders.flat.schema.json', sha256: 'c'.repeat(64) });
  assert.match(
    comparabilityOf(given, edited)[0].message,
    /changed: json-schema orders\.flat\.schema\.json \(sha256 bbbbbbbbbbbb… → cccccccccccc…\)/,
  );
  assert.deepEqual(comparabilityOf(given, structuredClone(given)), []);
  // files before the hash was recorded: told apart by where the schema came from
  const old = (x: ResultsFile) => ({
    ...x,
    payloads: x.payloads!.map((p) => ({ ...p, schema: { ...p.schema, sha256: undefined } })),
  });
  assert.equal(comparabilityOf(old(inferred), given)[0].what, 'schema');
  assert.deepEqual(comparabilityOf(old(inferred), inferred), []);
});
