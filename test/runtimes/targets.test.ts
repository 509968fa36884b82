import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTarget, parseTargets } from '../../src/runtimes/index.js';
import { parseSshAddress, shellQuote } from '../../src/runtimes/ssh-address.js';
import { defaultCacheDir, runtimeDir } from '../../src/runtimes/cache.js';
import { parseChromiumVersion } from '../../src/runtimes/chromium.js';
import { nodeBinaryPackage } from '../../src/runtimes/node-version.js';
import { prepareTargets } from '../../src/runtimes/prepare.js';
import { expandTargets } from '../../src/plan/targets.js';
import { runGroups } from '../../src/run/runner.js';
import { launchCommand } from '../../src/runtimes/launch.js';
import { formatAllocated, formatDelta } from '../../src/report/target-columns.js';
import { payload, planned, timed, allocated } from '../run/fake-launch.js';
import { policies } from '../../src/config/policies.js';
import type { WorkerJob } from '../../src/worker/protocol.js';

test('every documented target form parses to its runtime kind', () => {
  const kinds = [
    'node',
    'node@20',
    'node@22',
    'node@24',
    'node@26',
    'bun',
    'deno',
    'chromium',
    'quickjs',
    'ssh://me@example.test:2222',
  ].map((id) => [id, parseTarget(id).kind]);
  assert.deepEqual(kinds, [
    ['node', 'node-host'],
    ['node@20', 'node-version'],
    ['node@22', 'node-version'],
    ['node@24', 'node-version'],
    ['node@26', 'node-version'],
    ['bun', 'bun'],
    ['deno', 'deno'],
    ['chromium', 'chromium'],
    ['quickjs', 'quickjs'],
    ['ssh://me@example.test:2222', 'ssh'],
  ]);
});

test('an unknown target is refused with the known forms listed', () => {
  assert.throws(
    () => parseTarget('spidermonkey'),
    /unknown target "spidermonkey" \(known: node, node@20.*ssh:\/\/user@host\[:port\]\)/,
  );
});

test('a --target list splits on commas and drops duplicates, keeping the order given', () => {
  assert.deepEqual(
    parseTargets(['node,bun', 'deno', 'bun']).map((t) => t.id),
    ['node', 'bun', 'deno'],
  );
});

test('an ssh target carries user, host, port and the remote node, identity and known_hosts', () => {
  assert.deepEqual(
    parseSshAddress('ssh://ci@127.0.0.1:2222?node=/opt/node/bin/node&identity=/tmp/k&known_hosts=/tmp/kh'),
    {
      user: 'ci',
      host: '127.0.0.1',
      port: 2222,
      node: '/opt/node/bin/node',
      identity: '/tmp/k',
      knownHosts: '/tmp/kh',
    },
  );
  assert.deepEqual(parseSshAddress('ssh://ci@box'), { user: 'ci', host: 'box', port: 22, node: 'node' });
  assert.equal(parseSshAddress('bun'), undefined);
  assert.throws(() => parseSshAddress('ssh://box'), /expected ssh:\/\/user@host/);
  assert.equal(
    parseTarget('ssh://ci@box:22?node=/x').id,
    'ssh://ci@box',
    'the id leaves out the default port and the query',
  );
});

test('shell quoting keeps plain words and wraps the rest in single quotes', () => {
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  assert.equal(shellQuote("it's a (test)"), `'it'\\''s a (test)'`);
});

test('the cache folder is $JSONBENCH_CACHE, else $XDG_CACHE_HOME/jsonbench, else ~/.cache/jsonbench', () => {
  assert.equal(defaultCacheDir({ JSONBENCH_CACHE: '/c', XDG_CACHE_HOME: '/x' }), '/c');
  assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/x' }), '/x/jsonbench');
  assert.match(defaultCacheDir({}), /\.cache\/jsonbench$/);
  assert.equal(runtimeDir('/c', 'node@22'), '/c/runtimes/node@22');
});

test('the Node binary package is named for this machine, as the npm registry names it', () => {
  assert.equal(nodeBinaryPackage(), `node-${process.platform}-${process.arch}`);
});

test("Chromium's version is read from its --version line", () => {
  assert.equal(
    parseChromiumVersion('Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)'),
    '156.0.8078.108',
  );
  assert.equal(parseChromiumVersion('nonsense'), undefined);
});

test("targets multiply each group, suffix ids with @target when named, and make json the runtime's own", () => {
  const groups = expandTargets(
    [[planned('json'), planned('fast', { family: 'schema-compiled' })]],
    [
      { id: 'node', runtime: 'node', version: '20.20.2' },
      { id: 'bun', runtime: 'bun', version: '1.4.5' },
    ],
  );
  assert.deepEqual(
    groups.map((g) => g.map((c) => [c.id, c.target?.id, c.serializerVersion])),
    [
      [
        ['weather-station/1/single/serialize/json@node', 'node', 'node 20.20.2'],
        ['weather-station/1/single/serialize/fast@node', 'node', '1.0.0'],
      ],
      [
        ['weather-station/1/single/serialize/json@bun', 'bun', 'bun 1.4.5'],
        ['weather-station/1/single/serialize/fast@bun', 'bun', '1.0.0'],
      ],
    ],
  );
  // a run that names no target runs on the host's Node, a target like any other, and keeps its plain ids
  assert.deepEqual(
    expandTargets([[planned('json')]], [{ id: 'node', runtime: 'node', version: '20.20.2' }], false).map((g) => [
      g[0].id,
      g[0].target.id,
    ]),
    [['weather-station/1/single/serialize/json', 'node']],
  );
});

test('a target that is not installed fails only its own cases, with the command that installs it', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'jsonbench-empty-cache-'));
  try {
    const prepared = await prepareTargets([parseTarget('bun')], {
      cacheDir: cache,
      bundleDir: join(cache, 'bundle'),
      payloadPaths: [],
    });
    assert.equal(prepared.infos[0].fault, 'bun is not installed: run `jsonbench runtimes install bun`');
    const fake = { id: 'fake', runtime: 'node', version: '0' };
    const groups = expandTargets([[planned('json')]], [fake, ...prepared.refs]);
    const jobs: WorkerJob[] = [];
    const results = await runGroups({
      groups,
      payloads: new Map([[payload.key, payload]]),
      policy: policies.quick,
      partialPath: join(cache, 'partial.jsonl'),
      launchFor: (c) =>
        c.target?.id === 'fake'
          ? async (job) => {
              jobs.push(job);
              return job.mode === 'alloc' ? allocated([100]) : timed([[10, 11, 12]]);
            }
          : prepared.launchFor(c),
      faultOf: (c) => prepared.faultOf(c),
    });
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.reason, r.target]),
      [
        ['weather-station/1/single/serialize/json@fake', 'measured', undefined, fake],
        [
          'weather-station/1/single/serialize/json@bun',
          'failed',
          'bun is not installed: run `jsonbench runtimes install bun`',
          { id: 'bun', runtime: 'bun', version: 'unavailable' },
        ],
      ],
    );
    assert.deepEqual(
      jobs.map((j) => [j.mode, j.mode !== 'probe' && Boolean(j.alloc)]),
      [['time', true]],
      'only the fake target was launched (one timing launch, which takes the allocation windows too)',
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('allocation cells say how the figure was got: exact, ~estimate or n/a', () => {
  assert.equal(formatAllocated({ mean: 408, unit: 'bytes/op', gcPerOp: 0, windows: [408], method: 'exact' }), '408 B');
  assert.equal(
    formatAllocated({
      mean: 408,
      unit: 'bytes/op',
      gcPerOp: 0,
      windows: [408],
      method: 'estimate',
      note: 'heap growth',
    }),
    '~408 B',
  );
  assert.equal(formatAllocated({ unit: 'bytes/op', method: 'n/a', note: 'no counter' }), 'n/a');
  assert.equal(formatDelta(300, 200), '×1.50');
  assert.equal(formatDelta(undefined, 200), '—');
});

test('a target whose worker dies mid-run fails only its own cases, with how it died', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'jsonbench-dying-'));
  try {
    const dying: import('../../src/runtimes/types.js').Target = {
      id: 'node@99',
      kind: 'node-version',
      runtime: 'node',
      installHint: 'n/a',
      detect: async () => ({ installed: true, version: '99.0.0', location: process.execPath }),
      prepare: async () => ({
        info: {
          id: 'node@99',
          kind: 'node-version',
          runtime: 'node',
          version: '99.0.0',
          engine: 'V8',
          engineVersion: '0',
          flags: [],
          probe: {},
        },
        launch: (job, timeoutMs) =>
          launchCommand(
            {
              command: process.execPath,
              args: ['-e', 'process.stderr.write("segfault imitation\\n"); process.exit(139)'],
              channel: 'fd3',
            },
            job,
            timeoutMs,
          ),
      }),
    };
    const prepared = await prepareTargets([dying], {
      cacheDir: cache,
      bundleDir: join(cache, 'bundle'),
      payloadPaths: [],
    });
    const fake = { id: 'fake', runtime: 'node', version: '0' };
    const results = await runGroups({
      groups: expandTargets([[planned('json')]], [fake, ...prepared.refs]),
      payloads: new Map([[payload.key, payload]]),
      policy: policies.quick,
      partialPath: join(cache, 'partial.jsonl'),
      launchFor: (c) =>
        c.target?.id === 'fake'
          ? async (job) => (job.mode === 'alloc' ? allocated([100]) : timed([[10, 11, 12]]))
          : prepared.launchFor(c),
      faultOf: (c) => prepared.faultOf(c),
    });
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.reason]),
      [
        ['weather-station/1/single/serialize/json@fake', 'measured', undefined],
        [
          'weather-station/1/single/serialize/json@node@99',
          'crashed',
          'worker exited with code 139 before finishing: segfault imitation',
        ],
      ],
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
