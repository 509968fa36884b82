import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fasterThanBaseline, takeawayText, unrankedFinding, type TakeawayRow } from '../../src/report/takeaway.js';
import { UNRANKING_CODES } from '../../src/results/unranked.js';
import { FINDING_CODES } from '../../src/results/types.js';

/** A row with its log-scale interval [low, high] (null: unknown). */
const row = (
  name: string,
  ratio: number | null,
  interval: [number, number] | null,
  allocRatio: number | null = null,
  status = 'measured',
): TakeawayRow => ({ name, label: name === 'json' ? 'JSON.stringify' : name, status, ratio, interval, allocRatio });
const base = row('json', 1, [1, 1], 1);

test('a clear leader is named with its speed-up, its interval and how much less it allocates', () => {
  const text = takeawayText(
    [base, row('fjs', 0.5, [0.48, 0.52], 0.42), row('typia', 0.8, [0.76, 0.84], 0.9)],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    'fjs is fastest, 2.00× (99.9% CI 1.92–2.08×) faster than JSON.stringify and allocates 58% less; typia is also measurably faster, by 1.25×.',
  );
});

test('a serializer whose ratio interval includes 1 is never called faster than the baseline', () => {
  // both ends more than 10% from 1 (the border band's cap): within noise; 0.95 [0.85–1.08] is borderline (below)
  const text = takeawayText([base, row('fjs', 0.97, [0.86, 1.12], 0.5)], 'json', 'JSON.stringify');
  assert.equal(text, 'None is measurably faster than JSON.stringify; fjs is within noise of it.');
  assert.doesNotMatch(text, /faster than JSON\.stringify and/);
  // one that reaches below 0.8 as well is too uncertain to call (results/decision.ts unresolved), not "within noise"
  assert.equal(
    takeawayText([base, row('fjs', 0.9, [0.7, 1.15], 0.5)], 'json', 'JSON.stringify'),
    'fjs (0.90, 99.9% CI 0.70–1.15) is too uncertain to call against JSON.stringify: its interval is too wide to say whether it is faster or slower.',
  );
  // one whose end lies at 1, narrow enough otherwise, is borderline: never "faster", never "within noise"
  assert.equal(
    takeawayText([base, row('fjs', 0.9, [0.75, 1.08], 0.5)], 'json', 'JSON.stringify'),
    "None is measurably faster than JSON.stringify; fjs looks 0.90× (99.9% CI 0.75–1.08×) JSON.stringify's time but is borderline: the interval reaches 1.08, so it may be no faster at all.",
  );
});

test('leaders whose intervals overlap are reported as within noise of each other, with the range of speed-ups', () => {
  const text = takeawayText(
    [base, row('a', 0.5, [0.46, 0.54]), row('b', 0.52, [0.48, 0.56])],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    'a and b are fastest and within noise of each other, faster than JSON.stringify by 2.00× and 1.92× respectively (point estimates).',
    'a (0.50) is 2.00×, b (0.52) 1.92×: the numbers follow the names',
  );
});

test('below a clear leader, the others are placed: also faster, within noise of each other, within noise of the baseline', () => {
  const text = takeawayText(
    [
      base,
      row('a', 0.3, [0.29, 0.31], 0.2),
      row('b', 0.6, [0.56, 0.64]),
      row('c', 0.62, [0.58, 0.66]),
      row('d', 1.05, [0.96, 1.15]),
    ],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    'a is fastest, 3.33× (99.9% CI 3.23–3.45×) faster than JSON.stringify and allocates 80% less; b and c are also measurably faster, by 1.67× and 1.61× respectively (point estimates); b and c are within noise of each other; d is within noise of JSON.stringify.',
  );
});

test('an unknown interval claims nothing: the ratio is not ranked', () => {
  const text = takeawayText([base, row('a', 0.5, null)], 'json', 'JSON.stringify');
  assert.equal(
    text,
    'a (0.50, error unknown) is too uncertain to call against JSON.stringify: its error is unknown, so it cannot be called faster or slower.',
  );
});

test('when the baseline is fastest the next one is given as a multiple of its time', () => {
  const text = takeawayText([base, row('x', 1.5, [1.4, 1.6], 2.5)], 'json', 'JSON.stringify');
  assert.equal(
    text,
    'JSON.stringify (the baseline) is fastest; the next, x, takes 1.50× (99.9% CI 1.40–1.60×) as long.',
  );
});

test('cases without numbers are listed as not ranked; unsupported pairs are not', () => {
  const text = takeawayText(
    [
      base,
      row('a', 0.5, [0.49, 0.51]),
      row('b', null, null, null, 'incorrect'),
      row('c', null, null, null, 'timeout'),
      row('d', null, null, null, 'unsupported'),
    ],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    'a is fastest, 2.00× (99.9% CI 1.96–2.04×) faster than JSON.stringify. Not ranked: b (incorrect), c (timeout).',
  );
});

test('allocation is described as more, or as a multiple, when the leader allocates more', () => {
  const iv: [number, number] = [0.49, 0.51];
  assert.match(takeawayText([base, row('a', 0.5, iv, 1.3)], 'json', 'JSON.stringify'), /but allocates 30% more\.$/);
  assert.match(
    takeawayText([base, row('a', 0.5, iv, 3.04)], 'json', 'JSON.stringify'),
    /but allocates 3\.0× as much\.$/,
  );
  assert.match(
    takeawayText([base, row('a', 0.5, iv, 1.01)], 'json', 'JSON.stringify'),
    /and allocates about the same\.$/,
  );
});

test('a group where only the baseline ran says so', () => {
  assert.equal(
    takeawayText([base, row('b', null, null, null, 'crashed')], 'json', 'JSON.stringify'),
    'Only JSON.stringify was measured. Not ranked: b (crashed).',
  );
});

test('with wide intervals at the top, those measurably faster are named, no one is called fastest, and the rest are placed against the baseline', () => {
  const rows = [
    base,
    row('a', 0.37, [0.28, 1.05]),
    row('b', 0.38, [0.31, 0.47]),
    row('c', 0.46, [0.3, 0.7]),
    row('d', 1.42, [0.3, 6.7]),
    row('e', 4.11, [2.5, 6.7]),
    row('f', 12.7, [4, 50]),
  ];
  // f's interval spans 12.5× but lies wholly above 1: slower, ranked, with how wide it is
  assert.equal(
    takeawayText(rows, 'json', 'JSON.stringify'),
    "b and c are faster than JSON.stringify by 2.63× and 2.17× respectively (point estimates), but a and d could be as fast (the error bars overlap), so none of them can be called fastest; e and f are measurably slower; by how much is known only roughly for f (99.9% CI 4.00–50.0× JSON.stringify's time). Too uncertain to call: a (0.37, 99.9% CI 0.28–1.05), d (1.42, 99.9% CI 0.30–6.70).",
  );
});

test('a leader with a wide interval that covers 1 does not hide others that are measurably faster', () => {
  const rows = [base, row('wide', 0.4, [0.3, 1.1]), row('fjs', 0.5, [0.45, 0.56])];
  assert.equal(
    takeawayText(rows, 'json', 'JSON.stringify'),
    'fjs is faster than JSON.stringify by 2.00×, but wide could be as fast (the error bars overlap), so it cannot be called fastest. Too uncertain to call: wide (0.40, 99.9% CI 0.30–1.10).',
  );
});

test("a ratio whose interval spans more than a factor of 10 and contains 1 is never ranked, however low (the issue's 57.6 ± 258)", () => {
  const rows = [base, row('huge', 0.2, [0.01, 4]), row('fjs', 0.5, [0.45, 0.56]), row('slowhuge', 57.6, [2, 6636])];
  // huge might still be the fastest: no one is called fastest while its interval reaches the leader's
  assert.equal(
    takeawayText(rows, 'json', 'JSON.stringify'),
    "fjs is faster than JSON.stringify by 2.00×, but huge could be as fast (the error bars overlap), so it cannot be called fastest; slowhuge is measurably slower; by how much is known only roughly for slowhuge (99.9% CI 2.00–6636× JSON.stringify's time). Too uncertain to call: huge (0.20, 99.9% CI 0.01–4.00).",
  );
  // an uncertain ratio that cannot reach the leader does not stop it being called fastest
  assert.equal(
    takeawayText([base, row('fjs', 0.5, [0.45, 0.56]), row('huge', 3, [0.6, 18])], 'json', 'JSON.stringify'),
    'fjs is fastest, 2.00× (99.9% CI 1.79–2.22×) faster than JSON.stringify. Too uncertain to call: huge (3.00, 99.9% CI 0.60–18.0).',
  );
});

test('a wide interval wholly below 1 is evidence of faster: ranked, with how wide it is, never "too uncertain"; borderline when its end lies within the band of 1', () => {
  const text = takeawayText([base, row('a', 0.18, [0.04, 0.5]), row('b', 1.3, [1.2, 1.4])], 'json', 'JSON.stringify');
  assert.equal(text, 'a is fastest, 5.56× (99.9% CI 2.00–25.0×) faster than JSON.stringify; b is measurably slower.');
  assert.equal(
    takeawayText([base, row('fjs', 0.3, [0.28, 0.32]), row('a', 0.18, [0.04, 0.5])], 'json', 'JSON.stringify'),
    "a and fjs are fastest and within noise of each other, faster than JSON.stringify by 5.56× and 3.33× respectively (point estimates); by how much is known only roughly for a (99.9% CI 0.04–0.50× JSON.stringify's time).",
  );
  // 0.05–0.61: the end lies more than 10% from 1 (the border band's cap), so it is faster however wide;
  // 0.15–0.95: within the band and the cap, so the recommendation calls it borderline, and so does the takeaway
  assert.equal(
    takeawayText([base, row('a', 0.18, [0.05, 0.61]), row('b', 1.3, [1.2, 1.4])], 'json', 'JSON.stringify'),
    'a is fastest, 5.56× (99.9% CI 1.64–20.0×) faster than JSON.stringify; b is measurably slower.',
  );
  assert.equal(
    takeawayText([base, row('a', 0.38, [0.15, 0.95]), row('b', 1.3, [1.2, 1.4])], 'json', 'JSON.stringify'),
    "a looks fastest, 0.38× (99.9% CI 0.15–0.95×) JSON.stringify's time, but is borderline: the interval ends at 0.95, so close to 1 that a rerun could find it no faster; b is measurably slower.",
  );
});

test('overlaps do not chain: a serializer measurably slower than another at the top is not "at the top" (a overlaps b and c, b is clearly faster than c)', () => {
  // a's interval (0.20–1.20, not wide) reaches b and c; b (0.55–0.65) lies wholly below c (1.20–1.40)
  const text = takeawayText(
    [base, row('a', 0.5, [0.2, 1.2]), row('b', 0.6, [0.55, 0.65]), row('c', 1.3, [1.2, 1.4])],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    'b is faster than JSON.stringify by 1.67×, but a could be as fast (the error bars overlap), so it cannot be called fastest; c is measurably slower. Too uncertain to call: a (0.50, 99.9% CI 0.20–1.20).',
  );
  // the baseline at the top with a wide neighbour: c, measurably slower than the baseline, is not within noise at the top
  const top = takeawayText([base, row('a', 0.95, [0.85, 1.2]), row('c', 1.3, [1.1, 1.4])], 'json', 'JSON.stringify');
  assert.equal(top, 'None is measurably faster than JSON.stringify; a is within noise of it; c is measurably slower.');
});

test('a row not to be ranked (its baseline ran slowed beside it) is never fastest: listed under "Not ranked" with the reason', () => {
  const slowed = {
    ...row('evil', 0.27, [0.25, 0.29]),
    unranked: 'its paired baseline json ran 3.70× slower beside it',
  };
  const text = takeawayText([base, slowed, row('fjs', 0.6, [0.55, 0.65])], 'json', 'JSON.stringify');
  assert.equal(
    text,
    'fjs is fastest, 1.67× (99.9% CI 1.54–1.82×) faster than JSON.stringify. Not ranked: evil (its paired baseline json ran 3.70× slower beside it).',
  );
  assert.equal(fasterThanBaseline(slowed), false);
  assert.equal(fasterThanBaseline(row('fjs', 0.6, [0.55, 0.65])), true);
});

test('every range says what it is: a confidence interval is labelled with its level, a range of point estimates says so (new-user tryout: "1.56–1.74× faster" beside "(1.35–2.34×)")', () => {
  const three = takeawayText(
    [base, row('a', 0.5, [0.46, 0.54]), row('b', 0.52, [0.48, 0.56]), row('c', 0.55, [0.5, 0.6])],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    three,
    'a, b and c are fastest and within noise of each other, faster than JSON.stringify by 1.82× to 2.00× (point estimates).',
  );
  // the interval's label follows the run's confidence level
  const at99 = takeawayText(
    [base, row('x', 1.5, [1.4, 1.6]), row('d', 1.42, [0.3, 6.7])],
    'json',
    'JSON.stringify',
    0.99,
  );
  assert.equal(
    at99,
    'None is measurably faster than JSON.stringify; x is measurably slower. Too uncertain to call: d (1.42, 99% CI 0.30–6.70).',
  );
  assert.equal(
    takeawayText([base, row('x', 1.5, [1.4, 1.6])], 'json', 'JSON.stringify', 0.99),
    'JSON.stringify (the baseline) is fastest; the next, x, takes 1.50× (99% CI 1.40–1.60×) as long.',
  );
  // no bare lo–hi range is left in any sentence: each is preceded by "CI "
  for (const text of [
    three,
    at99,
    takeawayText([base, row('a', 0.18, [0.05, 0.61]), row('fjs', 0.3, [0.28, 0.32])], 'json', 'JSON.stringify'),
  ]) {
    for (const m of text.matchAll(/(\S+ )?\d[\d.]*–\d/g)) assert.equal(m[1], 'CI ', `an unlabelled range in: ${text}`);
  }
});

test("an allocation difference the windows do not support is not claimed (new-user tryout: zod's windows 2,662 vs 3,663 B/op)", () => {
  const iv: [number, number] = [0.49, 0.51];
  const spread = { ...row('a', 0.5, iv, 0.9), allocRange: [0.7, 1.02] as [number, number] };
  assert.equal(
    takeawayText([base, spread], 'json', 'JSON.stringify'),
    "a is fastest, 2.00× (99.9% CI 1.96–2.04×) faster than JSON.stringify; its allocation measurements differ (0.70–1.02× the baseline's): no allocation difference is claimed.",
  );
  // a range whose both ends say "less" still supports the claim
  assert.match(
    takeawayText([base, { ...row('a', 0.5, iv, 0.4), allocRange: [0.35, 0.45] }], 'json', 'JSON.stringify'),
    /and allocates 60% less\.$/,
  );
});

test('a borderline row at the top is said borderline, never beside "none is measurably faster" (nu6: fast-json-stringify 0.91 [0.83–0.99])', () => {
  const text = takeawayText(
    [base, row('fast-json-stringify', 0.91, [0.83, 0.99]), row('typia', 0.8, [0.6, 1.2])],
    'json',
    'JSON.stringify',
  );
  assert.equal(
    text,
    "fast-json-stringify is at the top; fast-json-stringify looks 0.91× (99.9% CI 0.83–0.99×) JSON.stringify's time but is borderline: the interval ends at 0.99, so close to 1 that a rerun could find it no faster. Too uncertain to call: typia (0.80, 99.9% CI 0.60–1.20).",
  );
});

test("a row the takeaway calls faster or borderline whose probes lose data on the user's own records says so (nu6: ajv-jtd)", () => {
  const lossy = { ...row('ajv-jtd', 0.94, [0.9, 0.99], 1), loses: true };
  const slower = { ...row('superjson', 2.2, [2.1, 2.3], 3), loses: true };
  // the borderline leader, in full and terse; a slower row that loses data is not named (nothing suggests it)
  assert.equal(
    takeawayText([base, lossy, slower], 'json', 'JSON.stringify'),
    "ajv-jtd looks fastest, 0.94× (99.9% CI 0.90–0.99×) JSON.stringify's time, but is borderline: the interval ends at 0.99, so close to 1 that a rerun could find it no faster; superjson is measurably slower; the probes show ajv-jtd losing data on your records with one change (the Behaviour lines below say what).",
  );
  assert.match(
    takeawayText([base, lossy, slower], 'json', 'JSON.stringify', 0.999, true),
    /^ajv-jtd looks fastest but is borderline \(its interval ends close to 1\); superjson is slower; the probes show ajv-jtd losing data on your records with one change \(report\.md says what\)\.$/,
  );
  // a clear leader and a row alone
  assert.match(
    takeawayText([base, { ...row('fjs', 0.5, [0.48, 0.52], 0.42), loses: true }], 'json', 'JSON.stringify'),
    /^fjs is fastest, .*; the probes show fjs losing data on your records with one change \(the Behaviour lines below say what\)\.$/,
  );
  assert.equal(
    takeawayText([{ ...row('fjs', 0.5, [0.48, 0.52], 0.42), loses: true }], 'json', 'JSON.stringify'),
    "Only fjs has a ratio: 0.50 (99.9% CI 0.48–0.52) of JSON.stringify's time. The probes show fjs losing data on your records with one change (the Behaviour lines below say what).",
  );
  // without the flag, nothing is said
  assert.doesNotMatch(takeawayText([base, row('ajv-jtd', 0.94, [0.9, 0.99], 1)], 'json', 'JSON.stringify'), /probes/);
});

test('a borderline row within 2% of 1 is "about as fast", never "looks faster" (nu6: "1.00× faster, borderline")', () => {
  // 1.00 [0.95–1.05]: too wide for a resolved tie (results/decision.ts TIE_WITHIN), so borderline
  const level = row('typia', 0.995, [0.95, 1.05], 1);
  assert.equal(
    takeawayText([base, level, row('ajv-jtd', 3, [2.9, 3.1], 1)], 'json', 'JSON.stringify', 0.999, true),
    'None is measurably faster than JSON.stringify; typia is about as fast as JSON.stringify (its interval holds 1, so a rerun could call it either way); ajv-jtd is slower.',
  );
  assert.match(
    takeawayText(
      [base, row('typia', 0.97, [0.92, 1.02], 1), row('ajv-jtd', 3, [2.9, 3.1], 1)],
      'json',
      'JSON.stringify',
      0.999,
      true,
    ),
    /; typia looks faster than JSON\.stringify but is borderline/,
  );
});

test("the takeaway's written-out unranking codes are results/unranked.ts's (the page's copy cannot import them)", () => {
  const finding = (code: string) => [{ code, message: `${code}: why` }];
  for (const code of UNRANKING_CODES) assert.equal(unrankedFinding(finding(code))?.code, code, code);
  for (const code of FINDING_CODES.filter((c) => !UNRANKING_CODES.includes(c)))
    assert.equal(unrankedFinding(finding(code)), undefined, code);
});
