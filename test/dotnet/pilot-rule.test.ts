import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PILOT_RULE } from '../../src/measure/timing.js';

const TIMING_CS = fileURLToPath(new URL('../../../workers/dotnet/src/Timing.cs', import.meta.url));

/** The value of `public const <type> <name> = <value>;` in Timing.cs; throws naming the constant when it is missing. */
function csConst(source: string, name: string): number {
  const m = new RegExp(`public const (?:int|double) ${name} = ([0-9.]+);`).exec(source);
  if (!m) throw new Error(`${TIMING_CS}: no constant ${name}`);
  return Number(m[1]);
}

test("the .NET worker's pilot (Timing.cs) uses the JavaScript pilot's constants (src/measure/timing.ts PILOT_RULE)", () => {
  const cs = readFileSync(TIMING_CS, 'utf8');
  assert.deepEqual(
    {
      confirmations: csConst(cs, 'PilotConfirmations'),
      confirmFraction: csConst(cs, 'PilotConfirmFraction'),
      readableMs: csConst(cs, 'PilotReadableMs'),
      overshoot: csConst(cs, 'PilotOvershoot'),
    },
    { ...PILOT_RULE },
  );
  // and Pilot reads them (a constant left unused would let the rule drift all the same)
  const pilot = cs.slice(cs.indexOf('public static int Pilot('), cs.indexOf('public const int PilotConfirmations'));
  for (const name of ['PilotConfirmations', 'PilotConfirmFraction', 'PilotReadableMs', 'PilotOvershoot'])
    assert.match(pilot, new RegExp(`\\b${name}\\b`), `Pilot does not read ${name}`);
});
