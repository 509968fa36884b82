import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';
import { visibleName } from '../../src/report/table/escape.js';
import { noWorkflowCommands } from '../../src/cli/streams.js';

/**
 * hx5 I-ghcmd (security): a payload file named `a\n::error file=README.md,line=1::…\n::add-mask::x.json`
 * reached stderr and stdout with its line breaks raw, so GitHub Actions read `::error` and
 * `::add-mask::` workflow commands at the start of a line (the runner trims leading white space, so
 * an indented line counts too). A name is now shown as one line (␊ ␍ ␉, `\u2028`), and no line jsonbench
 * writes starts with `::` or `##[`.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ghcmd-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** a line GitHub's runner would read as a workflow command */
const COMMAND_LINE = /^[ \t]*(::|##\[)/m;

test('a payload file name with line breaks puts no workflow command at a line start on stdout, stderr or in report.md', async () => {
  const name = 'a\n::error file=README.md,line=1::jsonbench found a vulnerability\r\n::add-mask::x.json';
  const payload = join(dir, name);
  writeFileSync(payload, '{"id":1,"name":"x","tags":["a","b"]}');
  const out = join(dir, 'out');
  const ran = await cli(
    [
      'run',
      '--payload',
      payload,
      '--serializer',
      'json',
      '--policy',
      'quick',
      '--no-probes',
      '--no-ledger',
      '--out',
      out,
    ],
    { timeoutMs: 300_000, env: { COLUMNS: '60' } },
  );
  assert.equal(ran.code, 0, ran.stderr);
  assert.doesNotMatch(ran.stderr, COMMAND_LINE);
  assert.doesNotMatch(ran.stdout, COMMAND_LINE);
  assert.match(ran.stderr, /a␊::error\s/);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.doesNotMatch(md, COMMAND_LINE);
  assert.match(md, /a␊::error file=README\.md,line=1::jsonbench found a vulnerability␍␊::add-mask::x\.json/);
});

test('visibleName shows line breaks, tabs, ESC, U+2028/2029 and bidi characters; noWorkflowCommands breaks only line starts', () => {
  assert.equal(visibleName('a\nb\rc\td\u001b[31m\u2028\u2029\u202e'), 'a␊b␍c␉d␛[31m\\u2028\\u2029\\u202E');
  assert.equal(
    noWorkflowCommands('x ::error::y\n  ::add-mask::z\n##[error]w', true),
    'x ::error::y\n  :\u200b:add-mask::z\n#\u200b#[error]w',
  );
  assert.equal(noWorkflowCommands('::a', true), ':\u200b:a');
  assert.equal(noWorkflowCommands('::a', false), '::a', 'a chunk continuing a line is left alone');
  // Azure Pipelines' logging commands anywhere in a line (hx6: a payload named ##vso[task.prependpath]pwned.json)
  assert.equal(
    noWorkflowCommands('  ##vso[task.prependpath]pwned.json (11.7 KiB', false),
    '  #\u200b#vso[task.prependpath]pwned.json (11.7 KiB',
  );
  assert.equal(
    noWorkflowCommands('payload p/##VSO[task.setvariable]x', true),
    'payload p/#\u200b#VSO[task.setvariable]x',
  );
});
