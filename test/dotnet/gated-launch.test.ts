import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { variantPathOf } from '../../src/case/coordinates.js';
import { policies } from '../../src/config/policies.js';
import { writePayload } from '../../src/plan/payloads.js';
import { workloads } from '../../src/workloads/index.js';
import { unitsOf } from '../../src/workloads/unit.js';
import { gatedLauncher } from '../../src/runtimes/dotnet/gated-launch.js';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import { judgeLaunch } from '../../src/run/runner.js';
import { PROTOCOL_VERSION, type CaseJob, type WorkerJob, type WorkerMessage } from '../../src/worker/protocol.js';

/**
 * The host side of the .NET gate, with a fake .NET worker (no dotnet needed): what it sends is
 * written here from the payload, right or deliberately wrong, and the launcher must turn it into
 * what the runner reads: verify first, `incorrect` for a wrong output (never timed), `incorrect`
 * for a timed launch whose output digest differs from the verified one.
 */

const P = { protocol: PROTOCOL_VERSION } as const;
const w = await workloads.load('weather-station');
const payload = await writePayload(mkdtempSync(join(tmpdir(), 'jsonbench-gated-')), w, 1, 42);
const sha = (outputs: string[]) => createHash('sha256').update(outputs.join('\n')).digest('hex');

/** Serialize outputs of a fake worker: the wire units written back compactly, or with the first key dropped. */
function outputs(text: string, wrong: boolean): string[] {
  return unitsOf(JSON.parse(text), 'single').map((u) => {
    const o = { ...(u as Record<string, unknown>) };
    if (wrong) delete o[Object.keys(o)[0]];
    return JSON.stringify(o);
  });
}

/**
 * A fake .NET launch: the gate messages of each side (outputs only in verify mode), then rounds or done.
 * `wrong` names a side's serializer whose outputs drop a key, on both payloads or only on `wrongOn`.
 */
function fakeWorker(opts: { wrong?: string; wrongOn?: 'variant'; drift?: string } = {}) {
  const modes: string[] = [];
  const launch = async (job: WorkerJob): Promise<LaunchOutcome> => {
    if (job.mode === 'probe') throw new Error('no probe jobs here');
    modes.push(job.mode);
    // as the real worker does: the texts of the payload file the job names (the gated launcher hands it the .NET copy)
    const texts = {
      main: readFileSync(job.payloadPath, 'utf8'),
      variant: readFileSync(variantPathOf(job.payloadPath), 'utf8'),
    };
    const sides: ['serializer' | 'baseline', string][] = [
      ['serializer', job.serializer],
      ...(job.baseline ? [['baseline', job.baseline] as ['baseline', string]] : []),
    ];
    const messages: WorkerMessage[] = [{ ...P, type: 'hello', runtime: 'dotnet', version: '10.0.12', gc: true }];
    for (const [side, id] of sides) {
      messages.push({
        ...P,
        type: 'library',
        side,
        serializer: id,
        code: 'X',
        assembly: 'System.Text.Json',
        version: '10.0.12',
      });
      for (const [name, text] of [
        ['main', texts.main],
        ['variant', texts.variant],
      ] as const) {
        const out = outputs(text, opts.wrong === id && (!opts.wrongOn || opts.wrongOn === name));
        const digest = job.mode !== 'verify' && opts.drift === id ? sha([...out, 'drift']) : sha(out);
        messages.push({
          ...P,
          type: 'gate',
          side,
          payload: name,
          direction: 'serialize',
          units: 1,
          inputBytes: 0,
          digest,
          ...(job.mode === 'verify' ? { outputs: out } : {}),
        } as unknown as WorkerMessage);
      }
    }
    if (job.mode === 'time')
      messages.push(
        {
          ...P,
          type: 'setup',
          opsPerSample: { serializer: 10, baseline: 10 },
          warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 },
          emptyNsPerOp: 1,
        },
        { ...P, type: 'round', round: 0, serializerNs: [100], baselineNs: [200] },
      );
    messages.push({ ...P, type: 'done', noisy: false, elapsedMs: 1, checksum: 1 });
    return { messages, exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 1 };
  };
  return { modes, launch };
}

const job = (serializer: string, mode: CaseJob['mode'] = 'time', baseline: string | null = 'stj'): CaseJob => ({
  mode,
  workload: 'weather-station',
  size: 1,
  shape: 'single',
  direction: 'serialize',
  caseClass: 'serialize',
  serializer,
  ...(baseline ? { baseline } : {}),
  payloadPath: payload.path,
  policy: policies.quick.measure,
});
const workloadOf = (id: string) => (id === w.id ? w : undefined);

test('a .NET case is verified once before it is timed; later launches only have their digests compared', async () => {
  const fake = fakeWorker();
  const launch = gatedLauncher(fake.launch, workloadOf);
  const first = judgeLaunch(await launch(job('newtonsoft'), 10_000), 1, 10_000);
  assert.equal(first.kind, 'ok');
  judgeLaunch(await launch(job('newtonsoft'), 10_000), 2, 10_000);
  judgeLaunch(await launch(job('newtonsoft', 'alloc', null), 10_000), 1, 10_000);
  assert.deepEqual(
    fake.modes,
    ['verify', 'time', 'time', 'alloc'],
    'stj and newtonsoft were verified together; the alloc launch needs no new verify',
  );
  assert.equal(first.kind === 'ok' && first.loadedVersion, '10.0.12');
});

test('a wrong .NET serializer is incorrect at the path it got wrong and is never timed', async () => {
  const fake = fakeWorker({ wrong: 'wrong-dotnet' });
  const launch = gatedLauncher(fake.launch, workloadOf);
  const v = judgeLaunch(await launch(job('wrong-dotnet'), 10_000), 1, 10_000);
  assert.equal(v.kind, 'incorrect');
  assert.ok(v.kind === 'incorrect' && v.side === 'serializer' && /^\$\.\w+/.test(v.mismatch.path), JSON.stringify(v));
  assert.equal(v.kind === 'incorrect' && v.mismatch.on, undefined, 'found on the payload itself: no `on`');
  const again = judgeLaunch(await launch(job('wrong-dotnet'), 10_000), 2, 10_000);
  assert.equal(again.kind, 'incorrect', 'the verdict is kept');
  assert.deepEqual(fake.modes, ['verify'], 'no timed launch ever started');
});

test("a .NET serializer wrong only on the gate's variant payload is incorrect with `on: variant`, not in its reason", async () => {
  const launch = gatedLauncher(fakeWorker({ wrong: 'wrong-dotnet', wrongOn: 'variant' }).launch, workloadOf);
  const v = judgeLaunch(await launch(job('wrong-dotnet'), 10_000), 1, 10_000);
  assert.ok(v.kind === 'incorrect', JSON.stringify(v));
  assert.equal(v.mismatch.on, 'variant');
  assert.match(v.reason, /^output differs at \$\.\w+$/);
  const again = judgeLaunch(await launch(job('wrong-dotnet'), 10_000), 2, 10_000);
  assert.equal(again.kind === 'incorrect' && again.mismatch.on, 'variant', 'the kept verdict keeps it');
});

test('a wrong baseline is reported on the baseline side, so the runner can drop the pairing', async () => {
  const launch = gatedLauncher(fakeWorker({ wrong: 'stj' }).launch, workloadOf);
  const v = judgeLaunch(await launch(job('newtonsoft'), 10_000), 1, 10_000);
  assert.ok(v.kind === 'incorrect' && v.side === 'baseline', JSON.stringify(v));
  assert.equal(
    judgeLaunch(await launch(job('newtonsoft', 'time', null), 10_000), 1, 10_000).kind,
    'ok',
    'newtonsoft alone passed its own gate',
  );
});

test('a timed launch whose output differs from what the verify launch passed is incorrect ("output changed between processes")', async () => {
  const launch = gatedLauncher(fakeWorker({ drift: 'newtonsoft' }).launch, workloadOf);
  const v = judgeLaunch(await launch(job('newtonsoft'), 10_000), 1, 10_000);
  assert.ok(
    v.kind === 'incorrect' && /output changed between processes/.test(v.reason) && v.side === 'serializer',
    JSON.stringify(v),
  );
});

test('a verify launch without gate output, or for a workload the host does not know, fails instead of passing', async () => {
  const silent = gatedLauncher(
    async (j) => ({
      messages: [
        { ...P, type: 'hello', runtime: 'dotnet', version: '1', gc: true },
        { ...P, type: 'done', noisy: false, elapsedMs: 1, checksum: 0 },
      ],
      exitCode: 0,
      signal: null,
      timedOut: false,
      stderrTail: '',
      stdoutTail: '',
      elapsedMs: 1,
      ...(j ? {} : {}),
    }),
    workloadOf,
  );
  const v = judgeLaunch(await silent(job('stj', 'time', null), 10_000), 1, 10_000);
  assert.ok(
    v.kind === 'bad' && v.status === 'failed' && /no gate output for the main and variant payload/.test(v.reason),
    JSON.stringify(v),
  );
  const unknown = gatedLauncher(fakeWorker().launch, () => undefined);
  const u = judgeLaunch(await unknown(job('stj', 'time', null), 10_000), 1, 10_000);
  assert.ok(u.kind === 'bad' && /no workload "weather-station"/.test(u.reason), JSON.stringify(u));
});

test('.NET launches read a copy of the payload whose variant has no lone surrogates; every other hostile string and the main payload stay', async () => {
  const { dotnetPayloadPath } = await import('../../src/runtimes/dotnet/well-formed.js');
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const original = readFileSync(variantPathOf(payload.path), 'utf8');
  const hasLone = (text: string) =>
    JSON.stringify(JSON.parse(text), (_k, v) => (typeof v === 'string' && lone.test(v) ? 'LONE' : v)).includes('LONE');
  assert.ok(hasLone(original), 'the gate variant of weather-station carries lone surrogates (issue 11)');
  const copy = dotnetPayloadPath(payload.path, w.wire?.indent);
  assert.notEqual(copy, payload.path);
  assert.equal(readFileSync(copy, 'utf8'), readFileSync(payload.path, 'utf8'));
  const variant = readFileSync(variantPathOf(copy), 'utf8');
  assert.equal(hasLone(variant), false);
  assert.ok(variant.includes('\\u0000') && variant.includes('\\\\'), 'control characters and backslashes stay');
  assert.equal(dotnetPayloadPath(payload.path, w.wire?.indent), copy, 'written once');
});
