import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parseTarget } from '../../src/runtimes/index.js';
import { runtimeDir } from '../../src/runtimes/cache.js';
import { QUICKJS_RUNNER_FLAGS } from '../../src/runtimes/quickjs.js';
import { cacheDir, ensureInstalled } from './helpers.js';

/**
 * QuickJS runs inside WebAssembly: its stack limit must turn deep input into a clean error inside
 * QuickJS (not a trap of the host). Checked in a Node process started like the QuickJS runner.
 */

const host = new URL('../../src/runtimes/quickjs-host.js', import.meta.url).href;
const script = (dir: string) => `
import { openQuickJS } from ${JSON.stringify(host)};
const q = await openQuickJS(${JSON.stringify(dir)});
const out = [];
for (const [name, code] of [
  ['parse 1000', "JSON.parse('['.repeat(1000) + ']'.repeat(1000)).length"],
  ['parse 200000', "JSON.parse('['.repeat(200000) + ']'.repeat(200000)).length"],
  ['stringify 200000', "let v = []; for (let i = 0; i < 200000; i++) v = [v]; JSON.stringify(v).length"],
  ['after', "JSON.stringify(JSON.parse('{\\"a\\":[1,2,3]}'))"],
]) {
  try { const h = q.evalOrThrow(code, name); out.push([name, 'ok', q.ctx.dump(h)]); h.dispose(); } catch (e) { out.push([name, 'error', e.message]); }
}
console.log(JSON.stringify(out));`;

test('deeply nested JSON ends in a clean stack-overflow error inside QuickJS, and the context survives', async (t) => {
  const skip = await ensureInstalled(parseTarget('quickjs'));
  if (skip) {
    t.skip(skip);
    return;
  }
  const out = JSON.parse(
    execFileSync(
      process.execPath,
      [...QUICKJS_RUNNER_FLAGS, '--input-type=module', '-e', script(runtimeDir(cacheDir, 'quickjs'))],
      { encoding: 'utf8' },
    ),
  ) as [string, string, unknown][];
  assert.deepEqual(out, [
    ['parse 1000', 'ok', 1],
    ['parse 200000', 'error', 'parse 200000: RangeError: Maximum call stack size exceeded'],
    ['stringify 200000', 'error', 'stringify 200000: RangeError: Maximum call stack size exceeded'],
    ['after', 'ok', '{"a":[1,2,3]}'],
  ]);
});
