import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerFileError, openLedger } from '../../src/ledger/schema.js';

/**
 * A ledger path that is a FIFO (or a device) is named as one (hx3, issue 25: a FIFO as --ledger gave
 * SQLite's bare "disk I/O error"), never handed to SQLite.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-special-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a FIFO as the ledger is refused saying it is a FIFO, not a file', (t) => {
  const fifo = join(dir, 'fifo.db');
  try {
    execFileSync('mkfifo', [fifo]);
  } catch {
    t.skip('mkfifo is not available here');
    return;
  }
  assert.throws(
    () => openLedger(fifo),
    (e: unknown) =>
      e instanceof LedgerFileError &&
      e.message ===
        `ledger ${fifo}: is a FIFO (named pipe), not a file: a ledger is an SQLite database file; pass --ledger with a file path, or --no-ledger`,
  );
});

test('a character device as the ledger is refused naming it', () => {
  assert.throws(
    () => openLedger('/dev/null'),
    (e: unknown) => e instanceof LedgerFileError && /\/dev\/null: is a character device, not a file/.test(e.message),
  );
});
