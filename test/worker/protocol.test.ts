import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeMessage, encodeMessage, PROTOCOL_VERSION, type WorkerJob, type WorkerMessage,
} from '../../src/worker/protocol.js';
import { variantPathOf } from '../../src/case/coordinates.js';
import { policies } from '../../src/config/policies.js';

/** One message of every type the worker sends, with awkward values (floats, unicode, nested). */
const messages: WorkerMessage[] = [
  { protocol: PROTOCOL_VERSION, type: 'hello', runtime: 'node', version: '20.19.0', gc: true },
  { protocol: PROTOCOL_VERSION, type: 'incorrect', side: 'serializer', path: '$.sensors[0].data[0]["wind dir"]', expected: '"Zürich"', actual: '"Z\\u00fcrich\n"', reason: 'output differs' },
  { protocol: PROTOCOL_VERSION, type: 'setup', opsPerSample: { serializer: 4096, baseline: 8192 }, warmup: { serializerOps: 200, serializerMs: 20.5, baselineOps: 400, baselineMs: 21.25 }, emptyNsPerOp: 0.8125 },
  { protocol: PROTOCOL_VERSION, type: 'round', round: 3, serializerNs: [1234.5678901234567, 1e-7], baselineNs: [Number.MAX_SAFE_INTEGER, 5e300] },
  { protocol: PROTOCOL_VERSION, type: 'alloc', windowsBytesPerOp: [640.125, 640, 655.5], gcPerOp: 0.0003, opsPerWindow: 32768, method: 'exact', how: 'GC-corrected V8 heap accounting' },
  { protocol: PROTOCOL_VERSION, type: 'done', noisy: true, elapsedMs: 812.3, checksum: 999_999_999 },
  { protocol: PROTOCOL_VERSION, type: 'error', stage: 'prepare', side: 'baseline', message: 'Error: cannot compile\n  at line 2' },
];

for (const m of messages) {
  test(`a ${m.type} message survives encode → decode unchanged`, () => {
    const { protocol: _, ...body } = m;
    const line = encodeMessage(body as Parameters<typeof encodeMessage>[0]);
    assert.ok(line.endsWith('\n'), 'a message is one line ending in \\n');
    assert.equal(line.indexOf('\n'), line.length - 1, 'newlines inside values are escaped, never raw');
    assert.deepEqual(decodeMessage(line.trimEnd()), m);
  });
}

test('encodeMessage stamps the protocol version on every message', () => {
  const line = encodeMessage({ type: 'done', noisy: false, elapsedMs: 1, checksum: 0 });
  assert.equal(PROTOCOL_VERSION, 1);
  assert.deepEqual(JSON.parse(line), { protocol: 1, type: 'done', noisy: false, elapsedMs: 1, checksum: 0 });
});

test('the start message carries the whole job to the worker', () => {
  const job: WorkerJob = {
    mode: 'time', workload: 'weather-station', size: 1, shape: 'single', direction: 'serialize', caseClass: 'serialize',
    serializer: 'typia', baseline: 'json', payloadPath: '/tmp/p/weather-station-1.json', configPath: '/tmp/c.mjs', policy: policies.quick.measure,
  };
  const parsed = JSON.parse(encodeMessage({ type: 'start', job }));
  assert.deepEqual(parsed, { protocol: 1, type: 'start', job });
});

test('decodeMessage rejects a message of another protocol version, naming both versions', () => {
  assert.throws(() => decodeMessage('{"protocol":2,"type":"done","noisy":false,"elapsedMs":1,"checksum":0}'),
    { message: 'protocol: version 2, expected 1' });
  assert.throws(() => decodeMessage('{"protocol":"1","type":"done"}'), { message: 'protocol: version "1", expected 1' },
    'the version must be the number 1, and the message must show it is a string');
  assert.throws(() => decodeMessage('{"type":"done"}'), { message: 'protocol: version missing, expected 1' });
});

test('decodeMessage rejects a line that is not JSON, quoting the line', () => {
  assert.throws(() => decodeMessage('prints: serializing object'), { message: 'protocol: not JSON: prints: serializing object' });
  assert.throws(() => decodeMessage('{"protocol":1,"type":"done"'), /^Error: protocol: not JSON: \{"protocol":1,"type":"done"$/);
});

test('decodeMessage quotes at most 120 characters of a bad line', () => {
  const long = 'x'.repeat(500);
  assert.throws(() => decodeMessage(long), { message: `protocol: not JSON: ${'x'.repeat(120)}` });
});

test('decodeMessage rejects JSON that is not a message object with a type', () => {
  for (const line of ['42', 'null', '"done"', '[1,2]', '{"protocol":1}', '{"protocol":1,"type":7}']) {
    assert.throws(() => decodeMessage(line), { message: `protocol: message without type: ${line}` }, line);
  }
});

test('the variant payload sits beside the main one', () => {
  assert.equal(variantPathOf('/out/payloads/users-100.json'), '/out/payloads/users-100.variant.json');
});
