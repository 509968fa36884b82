import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createChannelReader,
  decodeMessage,
  encodeMessage,
  PROTOCOL_VERSION,
  sealLine,
  type WorkerJob,
  type WorkerMessage,
} from '../../src/worker/protocol.js';
import { channelMac, newChannelKey } from '../../src/worker/channel-key.js';
import { variantPathOf } from '../../src/case/coordinates.js';
import { policies } from '../../src/config/policies.js';

/** One message of every type the worker sends, with awkward values (floats, unicode, nested). */
const messages: WorkerMessage[] = [
  { protocol: PROTOCOL_VERSION, type: 'hello', runtime: 'node', version: '20.19.0', gc: true },
  {
    protocol: PROTOCOL_VERSION,
    type: 'incorrect',
    side: 'serializer',
    path: '$.sensors[0].data[0]["wind dir"]',
    expected: '"Zürich"',
    actual: '"Z\\u00fcrich\n"',
    reason: 'output differs',
  },
  {
    protocol: PROTOCOL_VERSION,
    type: 'setup',
    opsPerSample: { serializer: 4096, baseline: 8192 },
    warmup: { serializerOps: 200, serializerMs: 20.5, baselineOps: 400, baselineMs: 21.25 },
    emptyNsPerOp: 0.8125,
  },
  {
    protocol: PROTOCOL_VERSION,
    type: 'round',
    round: 3,
    serializerNs: [1234.5678901234567, 1e-7],
    baselineNs: [Number.MAX_SAFE_INTEGER, 5e300],
  },
  {
    protocol: PROTOCOL_VERSION,
    type: 'alloc',
    windowsBytesPerOp: [640.125, 640, 655.5],
    gcPerOp: 0.0003,
    opsPerWindow: 32768,
    method: 'exact',
    how: 'GC-corrected V8 heap accounting',
  },
  { protocol: PROTOCOL_VERSION, type: 'done', noisy: true, elapsedMs: 812.3, checksum: 999_999_999 },
  {
    protocol: PROTOCOL_VERSION,
    type: 'error',
    stage: 'prepare',
    side: 'baseline',
    message: 'Error: cannot compile\n  at line 2',
  },
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
  assert.equal(PROTOCOL_VERSION, 2);
  assert.deepEqual(JSON.parse(line), { protocol: 2, type: 'done', noisy: false, elapsedMs: 1, checksum: 0 });
});

test('the start message carries the whole job to the worker', () => {
  const job: WorkerJob = {
    mode: 'time',
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    caseClass: 'serialize',
    serializer: 'typia',
    baseline: 'json',
    payloadPath: '/tmp/p/weather-station-1.json',
    configPath: '/tmp/c.mjs',
    policy: policies.quick.measure,
  };
  const parsed = JSON.parse(encodeMessage({ type: 'start', job, key: 'ab'.repeat(32) }));
  assert.deepEqual(parsed, { protocol: 2, type: 'start', job, key: 'ab'.repeat(32) });
});

test('decodeMessage rejects a message of another protocol version, naming both versions', () => {
  assert.throws(() => decodeMessage('{"protocol":1,"type":"done","noisy":false,"elapsedMs":1,"checksum":0}'), {
    message: 'protocol: version 1, expected 2',
  });
  assert.throws(
    () => decodeMessage('{"protocol":"2","type":"done"}'),
    { message: 'protocol: version "2", expected 2' },
    'the version must be the number 2, and the message must show it is a string',
  );
  assert.throws(() => decodeMessage('{"type":"done"}'), { message: 'protocol: version missing, expected 2' });
});

test('decodeMessage rejects a line that is not JSON, quoting the line', () => {
  assert.throws(() => decodeMessage('prints: serializing object'), {
    message: 'protocol: not JSON: prints: serializing object',
  });
  assert.throws(
    () => decodeMessage('{"protocol":2,"type":"done"'),
    /^Error: protocol: not JSON: \{"protocol":2,"type":"done"$/,
  );
});

test('decodeMessage quotes at most 120 characters of a bad line', () => {
  const long = 'x'.repeat(500);
  assert.throws(() => decodeMessage(long), { message: `protocol: not JSON: ${'x'.repeat(120)}` });
});

test('decodeMessage rejects JSON that is not a message object with a type', () => {
  for (const line of ['42', 'null', '"done"', '[1,2]', '{"protocol":2}', '{"protocol":2,"type":7}']) {
    assert.throws(() => decodeMessage(line), { message: `protocol: message without type: ${line}` }, line);
  }
});

test('the variant payload sits beside the main one', () => {
  assert.equal(variantPathOf('/out/payloads/users-100.json'), '/out/payloads/users-100.variant.json');
});

/** Signed lines (protocol 2): what a host accepts from a launch, and what it rejects. */
const done = { type: 'done' as const, noisy: false, elapsedMs: 1, checksum: 0 };
const round = { type: 'round' as const, round: 0, serializerNs: [1], baselineNs: [] as number[] };

test('signed lines in sequence are read back as the messages, without seq and mac', () => {
  const mac = channelMac(newChannelKey());
  const read = createChannelReader(mac);
  assert.deepEqual(read(sealLine(encodeMessage(round), 0, mac).trimEnd()), { protocol: 2, ...round });
  assert.deepEqual(read(sealLine(encodeMessage(done), 1, mac)), { protocol: 2, ...done });
});

test('an unsigned line, one signed with another key, a tampered one, a repeat and a skip are each rejected, naming why', () => {
  const mac = channelMac(newChannelKey());
  const other = channelMac(newChannelKey());
  const read = createChannelReader(mac);
  assert.throws(
    () => read(encodeMessage(done)),
    /^Error: protocol: an unsigned line on the channel \(not written by this launch's worker; forged by the code being measured\?\)/,
  );
  assert.throws(
    () => read(sealLine(encodeMessage(done), 0, other)),
    /^Error: protocol: a line whose signature does not match this launch's key \(forged\)/,
  );
  const tampered = sealLine(encodeMessage(round), 0, mac).replace('"serializerNs":[1]', '"serializerNs":[0.001]');
  assert.throws(() => read(tampered), /signature does not match/);
  const first = sealLine(encodeMessage(round), 0, mac);
  read(first);
  assert.throws(() => read(first), { message: 'protocol: message 0 arrived where 1 was expected (repeated)' });
  assert.throws(() => read(sealLine(encodeMessage(done), 2, mac)), {
    message: 'protocol: message 2 arrived where 1 was expected (out of order)',
  });
});

test('a MAC is HMAC-SHA256 of the line before it (a published test vector: RFC 4231 case 2 uses the key "Jefe")', () => {
  const mac = channelMac(Buffer.from('Jefe').toString('hex'));
  assert.equal(mac('what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
});
