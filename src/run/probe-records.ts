import type { GuaranteeClass } from '../case/coordinates.js';
import type { ProbeRecord } from '../results/types.js';
import { renderProbeValue } from '../probes/equal.js';
import type { Accept, Probe } from '../probes/types.js';

/**
 * A probe as the results file keeps it (results/types.ts {@link ProbeRecord}): id, family, title,
 * the constructs it needs, and per side its input and the behaviours it accepts, rendered as text
 * (clipped by renderProbeValue; the 50 MiB and deep inputs described by the probe, never built here).
 */

const CLASSES: readonly GuaranteeClass[] = ['parse', 'validate', 'transform'];

/** One accepted behaviour as text: `{"a":1}`, `refuses: not a uuid`, `writes it`. */
export function renderAccept(a: Accept): string {
  if (a.throws) return a.label ?? 'refuses';
  const what =
    a.text !== undefined
      ? renderProbeValue(a.text)
      : 'json' in a
        ? renderProbeValue(a.json)
        : 'value' in a
          ? renderProbeValue(a.value)
          : undefined;
  if (what === undefined) return a.label ?? 'passes its check';
  return a.label ? `${what} (${a.label})` : what;
}

const either = (accept: readonly Accept[]) => accept.map(renderAccept).join(' or ');

function inputOf(probe: Probe, direction: 'serialize' | 'deserialize'): string {
  if (probe.shown) return probe.shown.input;
  try {
    return direction === 'serialize'
      ? renderProbeValue(probe.serialize!.input())
      : renderProbeValue(probe.deserialize!.text());
  } catch (e) {
    return `(could not render: ${(e as Error).message})`;
  }
}

/** The results file's record of a probe. */
function probeRecord(probe: Probe): ProbeRecord {
  const record: ProbeRecord = { id: probe.id, family: probe.family, title: probe.title };
  if (probe.needs?.length) record.needs = [...probe.needs];
  if (probe.serialize)
    record.serialize = {
      input: inputOf(probe, 'serialize'),
      expected: probe.shown?.expected ?? either(probe.serialize.accept),
    };
  if (probe.deserialize) {
    const side = probe.deserialize;
    const byClass = CLASSES.map((c) => [c, probe.shown?.expected ?? either(side.accept(c))] as const);
    const same = byClass.every(([, e]) => e === byClass[0][1]);
    const expected = same
      ? byClass[0][1]
      : [...new Set(byClass.map(([, e]) => e))]
          .map(
            (e) =>
              `${byClass
                .filter(([, x]) => x === e)
                .map(([c]) => c)
                .join('/')}: ${e}`,
          )
          .join('; ');
    record.deserialize = { input: inputOf(probe, 'deserialize'), expected };
  }
  return record;
}

/** The parts of a .NET probe's record that differ from the JavaScript record of the same id (title, a side's input or expected), or undefined. */
function dotnetDifference(js: ProbeRecord, net: ProbeRecord): ProbeRecord['dotnet'] {
  const out: NonNullable<ProbeRecord['dotnet']> = {};
  if (net.title !== js.title) out.title = net.title;
  for (const d of ['serialize', 'deserialize'] as const) {
    const n = net[d];
    if (n && (n.input !== js[d]?.input || n.expected !== js[d]?.expected)) out[d] = n;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The records of a pass's probes: the JavaScript probes asked, then the .NET probes (probes/dotnet/
 * catalog.ts) merged in by id — a .NET probe that asks a JavaScript probe's question keeps its record,
 * with `dotnet` holding what its .NET side says otherwise (the title of its C# model, its input, the
 * behaviours it accepts); one the JavaScript catalog lacks (or did not ask) gets a record of its own,
 * placed after the last record of its family so the matrix groups it there.
 */
export function probeRecords(js: readonly Probe[], dotnet: readonly Probe[] = []): ProbeRecord[] {
  const out = js.map(probeRecord);
  const byId = new Map(out.map((r) => [r.id, r]));
  for (const p of dotnet) {
    const net = probeRecord(p);
    const same = byId.get(p.id);
    if (same) {
      const difference = dotnetDifference(same, net);
      if (difference) same.dotnet = difference;
      continue;
    }
    let at = out.length;
    for (let i = out.length - 1; i >= 0; i--)
      if (out[i].family === net.family) {
        at = i + 1;
        break;
      }
    out.splice(at, 0, net);
    byId.set(net.id, net);
  }
  return out;
}
