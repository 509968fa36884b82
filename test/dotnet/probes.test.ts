import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { detectDotnet, detectMono } from '../../src/runtimes/dotnet/detect.js';
import { parseTarget } from '../../src/runtimes/index.js';
import { prepareTargets } from '../../src/runtimes/prepare.js';
import { defaultCacheDir } from '../../src/runtimes/cache.js';
import { runProbeSession } from '../../src/run/probe-session.js';
import { runProbePass, writeProbePayload } from '../../src/run/probe-pass.js';
import { dotnetCatalog } from '../../src/probes/dotnet/catalog.js';
import { decodeDump, decodeUtf16 } from '../../src/probes/dotnet/outcome.js';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';
import { describeVerdict } from '../../src/report/probes.js';
import type { ConformanceSet } from '../../src/probes/catalog/conformance.js';
import type { ProbeVerdictRecord, ResultsFile } from '../../src/results/types.js';
import type { ProbeOutcomeMessage } from '../../src/worker/protocol.js';
import type { SerializerInfo } from '../../src/serializers/types.js';

/**
 * The .NET probes through the C# worker (issue 26, item 3): the matrix of the three built-ins against
 * its snapshot (test/fixtures/probes/dotnet-verdicts.json, every mark and the reason of each ✗ and ⚠;
 * `UPDATE_SNAPSHOTS=1` rewrites it after a library or SDK bump), what the published feature comparison
 * says checked against it, the test-only wrong serializers caught, every failing verdict reproduced by
 * the library called directly (test/fixtures/dotnet-probes-direct/), and Mono. Skipped, with the
 * reason, where `dotnet` (or Mono) is missing.
 */

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const conformanceDir = root('test/fixtures/probes/conformance');
const snapshotPath = root('test/fixtures/probes/dotnet-verdicts.json');
const directDir = root('test/fixtures/dotnet-probes-direct');
const BUILTINS = ['stj', 'stj-sourcegen', 'newtonsoft'];

const dotnet = await detectDotnet();
const skip = dotnet.installed ? false : `the dotnet target is not available here: ${dotnet.reason}`;

/** The snapshot of a .NET probe section: the marks of each probe side per built-in, and each ✗ and ⚠ with its reason. */
function snapshotOf(results: ResultsFile) {
  const section = results.probes!;
  const versions: Record<string, string> = {};
  const marks: Record<string, string> = {};
  const failing: Record<string, string> = {};
  for (const v of section.verdicts) {
    versions[v.serializer] = v.serializerVersion;
    const key = `${v.probe} ${v.direction}`;
    const mark = v.verdict.mark === '✗' ? `✗ ${v.verdict.fault}` : v.verdict.mark;
    marks[key] = marks[key] ? `${marks[key]} | ${v.serializer} ${mark}` : `${v.serializer} ${mark}`;
    if (v.verdict.mark === '✗' || v.verdict.mark === '⚠')
      // a crash's text is the tail of the runtime's stack trace, which is cut at another frame from run to run
      failing[`${v.probe} ${v.direction} ${v.serializer}`] =
        v.verdict.mark === '✗' && v.verdict.fault === 'crash'
          ? `✗ crash: ${v.verdict.actual.replace(/\):.*$/, ')')}`
          : describeVerdict(v.verdict);
  }
  return {
    about:
      'Every verdict of `jsonbench probe --target dotnet --conformance test/fixtures/probes/conformance` for the three .NET built-ins, and the reason of each ✗ and ⚠ (test/dotnet/probes.test.ts; UPDATE_SNAPSHOTS=1 rewrites it)',
    runtime: results.targets[0].probe.description ?? results.targets[0].version,
    versions,
    probes: section.probes.length,
    marks,
    failing,
  };
}

let session: ResultsFile | undefined;
/** One `jsonbench probe --target dotnet` of the three built-ins, shared by the tests below. */
async function dotnetMatrix(): Promise<ResultsFile> {
  if (session) return session;
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-netprobe-'));
  try {
    const run = await runProbeSession({
      target: ['dotnet'],
      conformance: conformanceDir,
      out,
      cwd: out,
      timeout: 60_000,
    });
    session = run.results;
    return session;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const verdictOf = (r: ResultsFile, serializer: string, probe: string, direction: string) =>
  r.probes!.verdicts.find((v) => v.serializer === serializer && v.probe === probe && v.direction === direction)
    ?.verdict;

test(
  'dotnet: probe --target dotnet judges stj, stj-sourcegen and newtonsoft on every .NET probe, as the snapshot pins',
  { skip },
  async () => {
    const results = await dotnetMatrix();
    const section = results.probes!;
    const catalog = dotnetCatalog({ conformance: readConformanceFolder(conformanceDir).set });
    const sides = catalog.reduce((n, p) => n + (p.serialize ? 1 : 0) + (p.deserialize ? 1 : 0), 0);
    for (const s of BUILTINS) {
      const mine = section.verdicts.filter((v) => v.serializer === s);
      assert.equal(mine.length, sides, `${s}: one verdict per .NET probe side`);
      assert.ok(mine.filter((v) => v.verdict.mark === '✔').length > sides / 2, `${s}: mostly ✔`);
    }
    const now = snapshotOf(results);
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(snapshotPath, JSON.stringify(now, null, 1) + '\n');
    const pinned = JSON.parse(readFileSync(snapshotPath, 'utf8')) as ReturnType<typeof snapshotOf>;
    assert.deepEqual(
      now.versions,
      pinned.versions,
      'the snapshot was made with other library versions: rerun with UPDATE_SNAPSHOTS=1 and review the diff',
    );
    assert.deepEqual(now.marks, pinned.marks);
    assert.deepEqual(now.failing, pinned.failing);
  },
);

test(
  'dotnet: the matrix says what the published feature comparison says, where it says something',
  { skip },
  async () => {
    const r = await dotnetMatrix();
    const mark = (s: string, p: string, d: string) => {
      const v = verdictOf(r, s, p, d);
      return v ? (v.mark === '✔' && v.label ? `✔ ${v.label}` : v.mark === '✗' ? `✗ ${v.fault}` : v.mark) : 'none';
    };
    // custom property names: both libraries, each with its own attribute
    for (const s of BUILTINS)
      for (const d of ['serialize', 'deserialize']) assert.equal(mark(s, 'feature.names.property', d), '✔');
    // naming policies: snake_case and camelCase in both (STJ JsonNamingPolicy, Newtonsoft NamingStrategy)
    for (const s of BUILTINS)
      for (const p of ['feature.naming.snake_case', 'feature.naming.camelCase'])
        for (const d of ['serialize', 'deserialize']) assert.equal(mark(s, p, d), '✔', `${s} ${p} ${d}`);
    // custom converters: a date format via DateFormatString vs a JsonConverter<DateTime>
    for (const s of BUILTINS) assert.equal(mark(s, 'feature.converter.date-format', 'serialize'), '✔');
    // polymorphism: Newtonsoft by TypeNameHandling (type names on the wire), STJ only with attributes
    assert.equal(mark('newtonsoft', 'feature.polymorphism.type-names', 'serialize'), '✔ writes .NET type names');
    assert.equal(mark('stj', 'feature.polymorphism.type-names', 'serialize'), '✔ writes "$type" tags');
    for (const s of BUILTINS)
      assert.equal(mark(s, 'feature.polymorphism.type-names', 'deserialize'), '✔ their classes');
    assert.equal(mark('newtonsoft', 'feature.polymorphism', 'serialize'), '✘');
    // without configuration STJ writes the declared type only; Newtonsoft writes the runtime type; neither reads it back
    assert.equal(mark('stj', 'feature.polymorphism.base-type', 'serialize'), '✗ silent-loss');
    assert.equal(mark('newtonsoft', 'feature.polymorphism.base-type', 'serialize'), '✔ own members');
    for (const s of BUILTINS) assert.equal(mark(s, 'feature.polymorphism.base-type', 'deserialize'), '✗ silent-loss');
    // NaN: STJ refuses it by default; Newtonsoft writes the string "NaN"
    assert.equal(mark('stj', 'edge.number.NaN', 'serialize'), '✔ refuses (NaN has no JSON form)');
    assert.equal(mark('newtonsoft', 'edge.number.NaN', 'serialize'), '✗ wrong-value');
    // the known TypeNameHandling risk: only Newtonsoft with type names on builds a type the input names
    assert.equal(mark('newtonsoft', 'safety.type-name.type-names', 'deserialize'), '✗ accepts-invalid');
    assert.equal(mark('stj', 'safety.type-name.type-names', 'deserialize'), '✔ keeps it as data');
  },
);

test(
  'dotnet: a deliberately wrong .NET serializer is caught by a probe, where the built-ins pass it',
  { skip },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-netprobe-wrong-'));
    try {
      const probes = dotnetCatalog({ families: ['feature', 'edge'] }).filter((p) =>
        ['feature.names.property', 'edge.number.NaN', 'edge.number.-0'].includes(p.id),
      );
      const payloadPath = writeProbePayload(join(out, 'payloads'), undefined, [], probes);
      const ready = await prepareTargets([parseTarget('dotnet')], {
        cacheDir: defaultCacheDir(),
        bundleDir: join(out, 'worker'),
        payloadPaths: [payloadPath],
      });
      try {
        const info = (id: string): SerializerInfo => ({
          id,
          platform: 'dotnet',
          family: 'builtin',
          directions: ['serialize', 'deserialize'],
          deserializeClass: 'transform',
          supports: () => true,
        });
        const section = await runProbePass({
          selection: 'asked',
          families: ['feature', 'edge'],
          probes: [],
          rows: [],
          directions: ['serialize', 'deserialize'],
          targets: ready.refs,
          launchFor: (t) => ready.launchFor({ target: t }),
          faultOf: (t) => ready.faultOf({ target: t }),
          payloadPath,
          timeoutMs: 60_000,
          dotnet: {
            rows: ['stj', 'wrong-dotnet', 'newtonsoft', 'symbol-nan-dotnet'].map((id) => ({
              serializer: info(id),
              label: id,
              version: () => 'test',
            })),
            probes,
          },
        });
        const get = (s: string, p: string, d: string) =>
          section.verdicts.find((v: ProbeVerdictRecord) => v.serializer === s && v.probe === p && v.direction === d)!
            .verdict;
        // wrong-dotnet: System.Text.Json without each type's last property
        assert.deepEqual(get('wrong-dotnet', 'feature.names.property', 'serialize'), {
          mark: '✗',
          fault: 'silent-loss',
          path: '$.name',
          expected: '"Ada"',
          actual: 'undefined (absent)',
        });
        assert.equal(get('wrong-dotnet', 'feature.names.property', 'deserialize').mark, '✗');
        assert.deepEqual(get('stj', 'feature.names.property', 'serialize'), { mark: '✔' });
        // symbol-nan-dotnet: Newtonsoft's FloatFormatHandling.Symbol writes NaN bare, which is no JSON
        const nan = get('symbol-nan-dotnet', 'edge.number.NaN', 'serialize');
        assert.equal(nan.mark === '✗' && nan.fault, 'invalid-json', describeVerdict(nan));
        assert.equal(get('newtonsoft', 'edge.number.NaN', 'serialize').mark, '✗');
        assert.equal((get('newtonsoft', 'edge.number.NaN', 'serialize') as { fault: string }).fault, 'wrong-value');
        assert.deepEqual(get('symbol-nan-dotnet', 'edge.number.-0', 'serialize'), { mark: '✔' });
      } finally {
        await ready.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

/** Builds the direct-call fixture into the jsonbench cache (once per content). @returns its Direct.dll */
function buildDirect(): string {
  const hash = createHash('sha256');
  for (const f of ['Direct.csproj', 'Program.cs']) hash.update(readFileSync(join(directDir, f)));
  const dir = join(defaultCacheDir(), 'dotnet', `probes-direct-${hash.digest('hex').slice(0, 16)}`);
  const dll = join(dir, 'bin', 'Direct.dll');
  if (existsSync(dll)) return dll;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const f of ['Direct.csproj', 'Program.cs']) cpSync(join(directDir, f), join(tmp, f));
  execFileSync('dotnet', ['build', '-c', 'Release', '-o', join(tmp, 'bin'), '--disable-build-servers', '-nologo'], {
    cwd: tmp,
    stdio: 'pipe',
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', MSBUILDDISABLENODEREUSE: '1' },
    timeout: 600_000,
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dll;
}

/** The value at a path the direct fixture names (`$.a.b`, `$.pets[0].$class`, `$[0]`, `$["k"]`, `$.length`). */
function at(v: unknown, path: string): unknown {
  let cur = v;
  for (const m of path.slice(1).matchAll(/\.([^.[]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) {
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(`"${m[3]}"`));
    cur = (cur as Record<string | number, unknown>)?.[key];
  }
  return cur;
}

test(
  'dotnet: every failing verdict of the built-ins is what the library does when called directly',
  { skip },
  async () => {
    const lines = execFileSync('dotnet', [buildDirect()], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            case: string;
            outcome: string;
            text?: string;
            name?: string;
            fields?: Record<string, unknown>;
          },
      );
    const results = await dotnetMatrix();
    const extra: ConformanceSet = {
      root: 'conformance',
      files: [
        ...readConformanceFolder(conformanceDir).set.files,
        { path: 'suite/y_number_negative_zero.json', text: '[-0]' },
      ],
    };
    const probes = dotnetCatalog({ conformance: extra });
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-netprobe-direct-'));
    try {
      const payloadPath = writeProbePayload(join(out, 'payloads'), undefined, [], probes);
      const ready = await prepareTargets([parseTarget('dotnet')], {
        cacheDir: defaultCacheDir(),
        bundleDir: join(out, 'w'),
        payloadPaths: [payloadPath],
      });
      try {
        const launch = ready.launchFor({ target: ready.refs[0] })!;
        const covered = new Set<string>();
        for (const serializer of BUILTINS) {
          const mine = lines.filter((l) => l.case.split('|')[1] === serializer);
          const cells = mine.map((l) => ({
            probe: l.case.split('|')[0],
            direction: l.case.split('|')[2] as 'serialize' | 'deserialize',
          }));
          const o = await launch({ mode: 'probe', serializer, cells, payloadPath }, 60_000);
          for (const l of mine) {
            const [probe, , direction] = l.case.split('|');
            const m = o.messages.find(
              (x): x is ProbeOutcomeMessage =>
                x.type === 'probe-outcome' && x.probe === probe && x.direction === direction,
            );
            assert.ok(m, `${l.case}: the worker reported nothing`);
            assert.equal(
              m.outcome,
              l.outcome,
              `${l.case}: the worker's call ${m.outcome}, the direct call ${l.outcome} (${m.name ?? ''} ${m.message ?? ''})`,
            );
            if (l.outcome === 'threw') assert.equal(m.name, l.name, l.case);
            else if (l.text !== undefined) assert.equal(decodeUtf16(m.text64!), l.text, l.case);
            else
              for (const [path, expected] of Object.entries(l.fields!)) {
                if (path === 'constructed')
                  assert.equal(m.constructed?.length ?? 0, expected, `${l.case}: instances constructed`);
                else if (path === '$.length') assert.equal((decodeDump(m.dump!) as unknown[]).length, expected, l.case);
                else {
                  const got = at(decodeDump(m.dump!), path);
                  assert.deepEqual(
                    got === undefined ? null : got,
                    expected === 'NaN' ? Number.NaN : expected,
                    `${l.case} at ${path}`,
                  );
                }
              }
            covered.add(`${probe} ${direction} ${serializer}`);
          }
        }
        // every ✗ and ⚠ of the matrix has its direct reproduction (by group: one hostile string stands for its class)
        // a hostile string stands for its class at every length, and the three classes of lone surrogates for each other
        const group = (id: string) =>
          id
            .replace(/\.(U\+[0-9A-F]{4}\.)?L\d+$/, '')
            .replace(/\.(lone-high|lone-low|reversed-pair)$/, '.lone-surrogate');
        const coveredGroups = new Set(
          [...covered].map((c) => {
            const [p, d, s] = c.split(' ');
            return `${group(p)} ${d} ${s}`;
          }),
        );
        const missing = results
          .probes!.verdicts.filter(
            (v) => (v.verdict.mark === '✗' || v.verdict.mark === '⚠') && BUILTINS.includes(v.serializer),
          )
          .filter((v) => v.verdict.mark !== '✗' || v.verdict.fault !== 'crash')
          .map((v) => `${group(v.probe)} ${v.direction} ${v.serializer}`)
          .filter((k) => !coveredGroups.has(k));
        assert.deepEqual([...new Set(missing)], [], 'failing verdicts without a direct reproduction');
      } finally {
        await ready.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test(
  'dotnet: Newtonsoft overflows the stack writing 100,000 nested lists when called directly, as the ✗ crash says',
  { skip },
  () => {
    const r = (() => {
      try {
        execFileSync('dotnet', [buildDirect(), 'crash-depth'], { stdio: 'pipe', encoding: 'utf8' });
        return { status: 0, stderr: '' };
      } catch (e) {
        return e as { status: number | null; stderr: string };
      }
    })();
    assert.notEqual(r.status, 0);
    assert.match(String(r.stderr), /Stack overflow/);
  },
);

const mono = await detectMono();
const skipMono = mono.installed ? false : `the mono target is not available here: ${mono.reason}`;

test(
  'mono: probe --target mono judges the three built-ins (where Mono formats -0 as 0)',
  { skip: skipMono },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-netprobe-mono-'));
    try {
      const run = await runProbeSession({
        target: ['mono'],
        family: ['feature', 'edge'],
        out,
        cwd: out,
        timeout: 60_000,
      });
      const r = run.results;
      for (const s of BUILTINS)
        assert.ok(
          r.probes!.verdicts.some((v) => v.serializer === s && v.verdict.mark === '✔'),
          s,
        );
      assert.equal(verdictOf(r, 'stj', 'edge.number.NaN', 'serialize')?.mark, '✔');
      const negZero = verdictOf(r, 'stj', 'edge.number.-0', 'serialize');
      assert.ok(negZero?.mark === '✗' && negZero.fault === 'silent-loss', describeVerdict(negZero!));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);
