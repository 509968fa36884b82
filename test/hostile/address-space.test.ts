import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin } from './support.js';

/**
 * hx5 C2 (crash): under `ulimit -v 6000000` every command but `--version` died with Node's raw
 * "RangeError: WebAssembly.instantiate(): Out of memory … at lazyllhttp": a dependency (arktype) reads
 * the Request/Headers globals when it loads, which loads Node's undici, whose unhandled llhttp promise
 * rejected (files/process-end.ts tolerateUndiciWasm drops that rejection, nothing else).
 */

const limited = (args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'sh',
      ['-c', 'ulimit -v 6000000 && exec "$0" "$@"', process.execPath, bin, ...args],
      { env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '200' }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: unknown }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr });
      },
    );
  });

test(
  '--version and list work under a 6 GB address-space limit (ulimit -v)',
  { skip: process.platform === 'win32' && 'needs sh and ulimit' },
  async () => {
    const version = await limited(['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const list = await limited(['list']);
    assert.equal(list.code, 0, list.stderr);
    assert.doesNotMatch(list.stderr, /WebAssembly|lazyllhttp/);
    assert.match(list.stdout, /arktype/);
  },
);

test(
  'a run out of file descriptors (ulimit -n 60) ends with exit 2 and the limit named, never a stack (hx6)',
  { skip: process.platform === 'win32' && 'needs sh and ulimit' },
  async () => {
    const payload = fileURLToPath(new URL('../../../examples/response.json', import.meta.url));
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-nofile-'));
    try {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          'sh',
          [
            '-c',
            'ulimit -n 60 && exec "$0" "$@"',
            process.execPath,
            bin,
            'run',
            '--payload',
            payload,
            '--policy',
            'quick',
            '--no-probes',
            '--no-ledger',
            '--out',
            out,
          ],
          { env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '200' }, timeout: 120_000 },
          (error, _stdout, stderr) => {
            const e = error as (Error & { code?: unknown }) | null;
            resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stderr });
          },
        );
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /too many open files|EMFILE/);
      assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test(
  'too few file descriptors to load jsonbench itself (ulimit -n 30) ends with exit 2 and says so, never a stack (hx19 U01)',
  { skip: process.platform === 'win32' && 'needs sh and ulimit' },
  async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        'sh',
        ['-c', 'ulimit -n 30 && exec "$0" "$@"', process.execPath, bin, 'list'],
        { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 },
        (error, _stdout, stderr) => {
          const e = error as (Error & { code?: unknown }) | null;
          resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stderr });
        },
      );
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^jsonbench: error: too many open files \(EMFILE\) while loading jsonbench's own modules: raise the limit \(ulimit -n\) and run again\n$/,
    );
  },
);
