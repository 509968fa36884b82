import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * hx9 (hang): with XDG_STATE_HOME=/proc/nonexistent a run spun at 100% CPU after its last group and
 * never ended: making the integrity key's folder with a recursive mkdir loops forever under /proc on
 * Node 20 (mkdir of a missing child answers ENOENT though its parent exists). The key's folder is now
 * made one level at a time: the sidecar is written unsigned, with one warning, at once.
 */
test('a key folder that cannot be made under /proc gives an unsigned sidecar and a warning, not a hang', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-keyproc-'));
  try {
    const script = `
      const { writeSidecar } = await import(${JSON.stringify(new URL('../../src/results/integrity.js', import.meta.url).href)});
      writeSidecar(${JSON.stringify(join(dir, 'results.json'))}, '{}\\n');
    `;
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: '/proc/nonexistent' };
    delete env.JSONBENCH_KEY_FILE;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    assert.equal(r.signal, null, `ended by itself (signal ${r.signal})`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /warning: cannot make \/proc\/nonexistent\/jsonbench\/key: ENOENT[^\n]*unsigned/);
    const sidecar = readFileSync(join(dir, 'results.json.sha256'), 'utf8');
    assert.match(sidecar, /^[0-9a-f]{64} {2}results\.json\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
