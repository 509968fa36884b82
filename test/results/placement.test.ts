import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkResults } from '../../src/results/validate.js';
import { ResultsFileError } from '../../src/results/errors.js';
import type { CaseResult, ResultsFile } from '../../src/results/types.js';
import { results } from '../hostile/support.js';

/**
 * A case's serializer, target and platform must agree with each other and with the rest of the
 * file (attack session: a .NET serializer id on a Node target was accepted and ranked against
 * JSON.stringify). The file name and the JSON path of the bad case are named.
 */

const dotnetTarget: ResultsFile['targets'][number] = {
  id: 'dotnet',
  kind: 'dotnet',
  platform: 'dotnet',
  runtime: 'dotnet',
  version: '10.0.12',
  engine: 'CoreCLR',
  engineVersion: '10.0.12',
  flags: [],
  probe: {},
};

/** Renames case `i`'s serializer to `serializer` (its id too, so only the placement is wrong). */
function renamed(r: ResultsFile, i: number, serializer: string): void {
  const c = r.cases[i];
  r.cases[i] = {
    ...c,
    serializer,
    id: `${c.workload}/${c.size}/${c.shape}/${c.direction}/${serializer}`,
  } as CaseResult;
}

function refusal(r: ResultsFile): { path: string; message: string } {
  try {
    checkResults(r, 'edited.json');
  } catch (e) {
    assert.ok(e instanceof ResultsFileError, String(e));
    assert.match(e.message, /^edited\.json/, 'names the file');
    return { path: e.path, message: e.message };
  }
  return assert.fail('the file was accepted');
}

test('the fixtures, whose cases are placed right, are accepted', () => {
  for (const name of ['single.json', 'two-targets.json', 'scaling.json'] as const)
    assert.doesNotThrow(() => checkResults(results(name), name));
});

test("the .NET baseline (stj, named by policy.baselines) on the Node target is refused at its case's serializer", () => {
  const r = results();
  r.policy.baselines['dotnet serialize'] = 'stj';
  renamed(r, 1, 'stj');
  const { path, message } = refusal(r);
  assert.equal(path, '/cases/1/serializer');
  assert.match(
    message,
    /"stj" is the dotnet baseline \(policy\.baselines\), so it cannot run as a javascript serializer on target "node"/,
  );
});

test('a serializer measured on .NET in one case and on Node in another is refused at the second', () => {
  const r = results();
  r.targets.push(dotnetTarget);
  renamed(r, 0, 'newtonsoft');
  r.cases[0] = {
    ...r.cases[0],
    id: `${r.cases[0].id}@dotnet`,
    platform: 'dotnet',
    target: { id: 'dotnet', runtime: 'dotnet', version: '10.0.12' },
  };
  renamed(r, 2, 'newtonsoft');
  const { path, message } = refusal(r);
  assert.equal(path, '/cases/2/serializer');
  assert.match(
    message,
    /"newtonsoft" is a dotnet serializer in \/cases\/0, so it cannot run as a javascript serializer on target "node"/,
  );
});

test("a case whose platform is not its target's, on a target the file does not list, or whose id names another serializer is refused", () => {
  const onDotnet = results();
  onDotnet.targets.push(dotnetTarget);
  onDotnet.cases[1] = {
    ...onDotnet.cases[1],
    id: `${onDotnet.cases[1].id}@dotnet`,
    platform: 'javascript',
    target: { id: 'dotnet', runtime: 'dotnet', version: '10.0.12' },
  };
  const wrong = refusal(onDotnet);
  assert.equal(wrong.path, '/cases/1/platform');
  assert.match(wrong.message, /is a javascript case on target "dotnet", a dotnet target/);

  const unlisted = results();
  unlisted.cases[1] = {
    ...unlisted.cases[1],
    id: `${unlisted.cases[1].id}@bun`,
    target: { id: 'bun', runtime: 'bun', version: '1.1.30' },
  };
  const gone = refusal(unlisted);
  assert.equal(gone.path, '/cases/1/target/id');
  assert.match(gone.message, /ran on target "bun", which is not among the run's targets \(node\)/);

  const mislabelled = results();
  mislabelled.cases[1] = { ...mislabelled.cases[1], serializer: 'stj' } as CaseResult;
  const { path, message } = refusal(mislabelled);
  assert.equal(path, '/cases/1/id');
  assert.match(message, /does not name the case's coordinates ".*\/stj\[@node\]"/);
});
