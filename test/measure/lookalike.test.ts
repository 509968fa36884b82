import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstMismatch } from '../../src/measure/verify.js';
import { unmaterialised } from '../../src/measure/materialised.js';
import { sharedResult } from '../../src/measure/cache-checks.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * Results that read right and are not what they claim (hx29): an object passing as a Date, values hidden from
 * enumeration, a toJSON writing other text, and one Date handed to every result. Each was measured or recommended.
 */

test('an object passing as a Date (Date.prototype, its own getTime) is not a Date (hx29 C-fakedate: "faster by 1.76×")', () => {
  const real = new Date('2024-02-29T12:34:56.789Z');
  const fake = Object.setPrototypeOf({ getTime: () => real.getTime() }, Date.prototype) as Date;
  assert.ok(fake instanceof Date);
  const m = firstMismatch({ at: real }, { at: fake });
  assert.deepEqual(m, {
    path: '$.at',
    expected: 'Date(2024-02-29T12:34:56.789Z)',
    actual: 'an object passing as a Date (not a Date)',
  });
  assert.equal(firstMismatch({ at: real }, { at: new Date(real.getTime()) }), null);
});

test('a value hidden from enumeration is absent: JSON.stringify would not write it (hx29 C-nonenum)', () => {
  const hidden = Object.defineProperty({}, 'a', { value: 1, enumerable: false });
  assert.deepEqual(firstMismatch({ a: 1 }, hidden), { path: '$.a', expected: '1', actual: 'undefined (absent)' });
});

test("a toJSON the payload's value has not is not a plain result (hx29 C-tojson)", () => {
  const out = Object.setPrototypeOf({ a: 1 }, { toJSON: () => ({ hacked: true }) });
  assert.equal(firstMismatch({ a: 1 }, out), null, 'it reads right');
  const f = unmaterialised({ a: 1 }, out);
  assert.match(f?.reason ?? '', /^the result has a toJSON method at \$ that the payload's value has not/);
  assert.equal(
    unmaterialised({ at: new Date(0) }, { at: new Date(0) }),
    null,
    'a Date has its own toJSON on both sides',
  );
});

test('two calls sharing a Date are one cache of values (hx29 C-datememo: "faster by 1.46×")', () => {
  const memo = new Map<string, Date>();
  const text = '{"at":"2024-02-29T12:34:56.789Z","n":1}';
  const call = (t: string) =>
    JSON.parse(t, (k, v) => {
      if (k !== 'at') return v;
      let d = memo.get(v as string);
      if (!d) memo.set(v as string, (d = new Date(v as string)));
      return d;
    }) as unknown;
  const expectedOf = (t: string) => ({ ...(JSON.parse(t) as object), at: new Date('2024-02-29T12:34:56.789Z') });
  const check = (e: unknown, o: unknown) => {
    const m = firstMismatch(e, o);
    return m ? { ...m, reason: 'differs' } : null;
  };
  const f = sharedResult({ view: {} as Workload, text, expectedOf, call, check });
  assert.match(f?.reason ?? '', /returned the same object at \$\.at/);
  const fresh = sharedResult({
    view: {} as Workload,
    text,
    expectedOf,
    call: (t) => JSON.parse(t, (k, v) => (k === 'at' ? new Date(v as string) : (v as unknown))) as unknown,
    check,
  });
  assert.equal(fresh, null);
});
