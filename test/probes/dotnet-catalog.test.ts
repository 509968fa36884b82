import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../../src/probes/index.js';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';
import { cellValue, dotnetCatalog, dotnetCells, GADGET_TYPE_NAME } from '../../src/probes/dotnet/catalog.js';
import { decodeDump, decodeUtf16, judgeDotnet } from '../../src/probes/dotnet/outcome.js';
import { probeRecords } from '../../src/run/probe-records.js';
import { readProbeLaunch } from '../../src/run/probe-runner.js';
import { crashLine } from '../../src/run/verdict.js';
import { runProbeSession } from '../../src/run/probe-session.js';
import { PROTOCOL_VERSION } from '../../src/worker/protocol.js';
import { renderProbesSection } from '../../src/report/html/probes.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * The .NET probe catalog and the host's half of judging it (no `dotnet` needed): every cell names a
 * type the C# worker has, shared ids keep the JavaScript question, values cross exactly both ways,
 * the judge, the merged records, the reports' .NET side, and the probe command's refusals.
 */

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const conformance = readConformanceFolder(root('test/fixtures/probes/conformance')).set;
const catalog = dotnetCatalog({ conformance });
const js = new Map(loadCatalog({ conformance }).map((p) => [p.id, p]));

test('every .NET probe names a type of the C# worker, has what its sides need, and a unique id', () => {
  const types = new Set(
    [
      ...readFileSync(root('workers/dotnet/src/ProbeTypes.cs'), 'utf8').matchAll(
        /public (?:sealed |abstract )?class (\w+)/g,
      ),
    ].map((m) => m[1]),
  );
  types.add('object').add('string-map');
  assert.equal(new Set(catalog.map((p) => p.id)).size, catalog.length);
  for (const p of catalog) {
    assert.ok(types.has(p.cell.type), `${p.id}: type ${p.cell.type} is not in ProbeTypes.cs`);
    if (p.serialize && !p.inexpressible?.serialize)
      assert.ok(
        p.cell.input !== undefined || p.cell.inputText || p.cell.nested,
        `${p.id}: a serialize side without input`,
      );
    if (p.deserialize)
      assert.ok(
        p.cell.text !== undefined || p.cell.roundTrip || p.cell.nested,
        `${p.id}: a deserialize side without text`,
      );
    // a shared id asks the JavaScript probe's question (same family)
    const same = js.get(p.id);
    if (same) assert.equal(same.family, p.family, p.id);
  }
  for (const family of ['feature', 'edge', 'string', 'structure', 'safety', 'conformance'])
    assert.ok(
      catalog.some((p) => p.family === family),
      family,
    );
  // the cells cross as JSON: a lone surrogate stays escaped, NaN and -0 as the reader's tags
  const cells = JSON.parse(JSON.stringify(dotnetCells(catalog)));
  assert.equal(cells['string.value.plain.lone-high.U+D800.L1'].input.s, '\ud800');
  assert.deepEqual(cells['edge.number.NaN'].input, { n: 'NaN' });
  assert.deepEqual(cells['edge.number.-0'].input, { n: '-0' });
  assert.equal(cells['edge.date.valid'].input.at, '2024-02-29T12:34:56.789Z');
  assert.ok(!('input' in cells['edge.date.invalid']), 'an input .NET cannot hold is never built');
});

test('cellValue writes what the C# reader takes; decodeDump reads what the worker writes back', () => {
  assert.deepEqual(
    cellValue({ a: [Number.NaN, Infinity, -Infinity, -0, 1], b: 2n ** 63n, m: new Map([['k', new Set([1])]]) }),
    {
      a: ['NaN', 'Infinity', '-Infinity', '-0', 1],
      b: '9223372036854775808',
      m: { k: [1] },
    },
  );
  const v = decodeDump(
    '{"a":{"$bigint":"9007199254740993"},"b":{"$bigint":"-9223372036854775808"},"n":{"$number":"NaN"},"z":-0,' +
      '"u":{"$date":"2024-02-29T12:34:56.7890000Z","kind":"Utc"},"l":{"$date":"2024-02-29T12:34:56.0000000","kind":"Unspecified"},' +
      '"t":{"$date":"2024-02-29T12:34:56.7891000Z","kind":"Utc"},"w":{"$token":"undefined"},"s":"\\ud800","c":{"$class":"Cat","name":"Tom"}}',
  ) as Record<string, unknown>;
  assert.equal(v.a, 9007199254740993n);
  assert.equal(v.b, -(2 ** 63), '-2^63 is a double exactly: a number, as the JavaScript catalog writes it');
  assert.ok(Number.isNaN(v.n));
  assert.ok(Object.is(v.z, -0));
  assert.deepEqual(v.u, new Date('2024-02-29T12:34:56.789Z'));
  assert.equal(v.l, 'DateTime 2024-02-29T12:34:56.0000000 (Kind Unspecified)');
  assert.equal(v.t, 'DateTime 2024-02-29T12:34:56.7891000Z (Kind Utc)', 'a sub-millisecond part is no Date');
  assert.equal(v.w, 'token undefined');
  assert.equal(v.s, '\ud800');
  assert.deepEqual(v.c, { $class: 'Cat', name: 'Tom' });
  assert.equal(decodeUtf16(Buffer.from([0x00, 0xd8, 0x61, 0x00]).toString('base64')), '\ud800a');
});

test('judgeDotnet: the catalog judge on what the worker reports; a type built from "$type" is accepts-invalid', () => {
  const probe = (id: string) => catalog.find((p) => p.id === id)!;
  const text64 = (s: string) => Buffer.from(s, 'utf16le').toString('base64');
  assert.deepEqual(
    judgeDotnet(probe('edge.number.NaN'), 'serialize', { outcome: 'returned', text64: text64('{"n":"NaN"}') }),
    {
      mark: '✗',
      fault: 'wrong-value',
      path: '$.n',
      expected: 'NaN',
      actual: '"NaN"',
    },
  );
  assert.deepEqual(
    judgeDotnet(probe('edge.number.NaN'), 'serialize', {
      outcome: 'threw',
      stage: 'call',
      name: 'ArgumentException',
      message: 'no',
    }),
    { mark: '✔', label: 'refuses (NaN has no JSON form)' },
  );
  const raw = judgeDotnet(probe('string.value.plain.lone-high.U+D800.L1'), 'serialize', {
    outcome: 'returned',
    text64: text64('{"s":"\ud800"}'),
  });
  assert.equal(raw.mark === '✗' && raw.fault, 'ill-formed');
  const gadget = judgeDotnet(probe('safety.type-name.type-names'), 'deserialize', {
    outcome: 'returned',
    dump: '{"payload":{"$class":"ProbeGadget","command":"echo harmless"}}',
    constructed: ['JsonBench.Worker.ProbeGadget'],
  });
  assert.equal(gadget.mark === '✗' && gadget.fault, 'accepts-invalid');
  assert.deepEqual(
    judgeDotnet(probe('safety.type-name.default'), 'deserialize', {
      outcome: 'returned',
      dump: JSON.stringify({ payload: { $type: GADGET_TYPE_NAME, command: 'echo harmless' } }),
    }),
    { mark: '✔', label: 'keeps it as data' },
  );
  assert.deepEqual(
    judgeDotnet(probe('feature.polymorphism'), 'serialize', { outcome: 'unsupported', reason: 'none' }),
    {
      mark: '✘',
      reason: 'none',
    },
  );
  // a probe-outcome message becomes its verdict through the run's judge
  const reading = readProbeLaunch(
    {
      messages: [
        { protocol: PROTOCOL_VERSION, type: 'probe-start', probe: 'edge.number.NaN', direction: 'serialize' },
        {
          protocol: PROTOCOL_VERSION,
          type: 'probe-outcome',
          probe: 'edge.number.NaN',
          direction: 'serialize',
          outcome: 'returned',
          text64: text64('{"n":"NaN"}'),
        },
        { protocol: PROTOCOL_VERSION, type: 'done', noisy: false, elapsedMs: 1, checksum: 0 },
      ],
      exitCode: 0,
      signal: null,
      timedOut: false,
      stderrTail: '',
      stdoutTail: '',
      elapsedMs: 1,
    },
    1000,
    new Set(),
    (m) => judgeDotnet(probe(m.probe), m.direction, m),
  );
  assert.equal(reading.verdicts.get('serialize\u0000edge.number.NaN')?.mark, '✗');
});

test('the records of a pass: a shared id keeps the JavaScript record and adds its .NET side where that differs', () => {
  const jsProbes = [...js.values()].filter((p) => p.family === 'feature' || p.family === 'structure');
  const net = catalog.filter((p) => p.family === 'feature' || p.family === 'structure');
  const records = probeRecords(jsProbes, net);
  const byId = new Map(records.map((r) => [r.id, r]));
  assert.equal(byId.get('feature.names.property')!.dotnet, undefined, 'the same question, the same accepts');
  assert.equal(
    byId.get('feature.naming.camelCase')!.dotnet?.title,
    'camelCase naming policy, PascalCase model (a C# DTO)',
  );
  assert.match(byId.get('structure.depth.array.1000')!.dotnet!.serialize!.expected, /refuses \(depth limit\)/);
  // a .NET-only probe sits with its family, before the next family's records
  const ids = records.map((r) => r.id);
  assert.ok(ids.indexOf('feature.polymorphism.type-names') < ids.indexOf('structure.optional.---'));
  assert.ok(ids.indexOf('structure.depth.array.64') > ids.indexOf('structure.optional.---'));
  assert.equal(records.length, new Set(ids).size);
  // the HTML section reads a .NET verdict against the .NET side
  const results = {
    targets: [{ id: 'dotnet', platform: 'dotnet' }],
    probes: {
      selection: 'asked',
      families: ['structure'],
      timeoutMs: 1000,
      elapsedMs: 1,
      launches: 1,
      probes: records,
      verdicts: [
        {
          probe: 'structure.depth.array.1000',
          direction: 'serialize',
          serializer: 'newtonsoft',
          serializerVersion: '13.0.4',
          target: 'dotnet',
          verdict: { mark: '⚠', stage: 'call', message: 'JsonException: too deep' },
        },
      ],
    },
  } as unknown as ResultsFile;
  const html = renderProbesSection(results);
  assert.match(html, /refuses \(depth limit\)/);
});

test('probe refuses a serializer on a target of another platform, and a selection with no .NET probe', async () => {
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-netprobe-usage-'));
  try {
    await assert.rejects(runProbeSession({ serializer: ['json'], target: ['dotnet'], out, cwd: out }), (e: Error) => {
      assert.match(
        e.message,
        /--serializer: json runs on javascript targets only \(node.*\), and the targets are dotnet: add one with --target/,
      );
      return true;
    });
    await assert.rejects(runProbeSession({ serializer: ['stj'], out, cwd: out }), (e: Error) => {
      assert.match(
        e.message,
        /--serializer: stj runs on dotnet targets only \(dotnet, dotnet@8.*mono\), and the targets are node/,
      );
      return true;
    });
    await assert.rejects(
      runProbeSession({ serializer: ['stj'], target: ['node', 'dotnet'], out, cwd: out }),
      /--target: no chosen serializer runs on node/,
    );
    await assert.rejects(
      runProbeSession({ target: ['dotnet'], filter: '^feature\\.additional\\.keep$', out, cwd: out }),
      /--filter: selects no probe of the \.NET catalog/,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a .NET or Mono stack overflow is named in the crash verdict, not its last frame', () => {
  const dotnetTail =
    'Stack overflow.\nRepeated 10723 times:\n---\n   at Newtonsoft.Json.Serialization.JsonSerializerInternalWriter.SerializeValue(A)\n   at JsonBench.Worker.Program.Main(System.String[])\n';
  assert.equal(crashLine(dotnetTail), 'Stack overflow.');
  const cut =
    'ontract, JsonProperty)\n   at Newtonsoft.Json.Serialization.JsonSerializerInternalWriter.SerializeList(A)\n--------------------------------\n   at JsonBench.Worker.ProbeRunner.Run(B)\n   at JsonBench.Worker.Program.Main(System.String[])\n';
  assert.equal(
    crashLine(cut),
    "Stack overflow (the runtime's trace of repeated frames; the first in the tail: at Newtonsoft.Json.Serialization.JsonSerializerInternalWriter.SerializeList(A))",
  );
  const frame =
    'at Newtonsoft.Json.Serialization.JsonSerializerInternalWriter.SerializeValue (JsonWriter writer) [0x0001] in <x>:0';
  const monoTail = `:0\n${`  ${frame}\n`.repeat(8)}  at JsonBench.Worker.Program.Main (System.String[] args) [0x00128] in <x>:0\n`;
  assert.match(
    crashLine(monoTail),
    /^a stack overflow\? 8 of the last 10 stderr lines are one frame: at Newtonsoft\.Json\.Serialization\.JsonSerializerInternalWriter\.SerializeValue/,
  );
  assert.equal(
    crashLine('some output\nRangeError: Maximum call stack size exceeded\nmore'),
    'RangeError: Maximum call stack size exceeded',
  );
  assert.equal(crashLine('a\nb\n'), 'b');
});
