import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpuPinning, parseCpuList, pinnedCommand, slotCpus } from '../../src/runtimes/pinning.js';

/** Pinning workers to CPUs for `run --jobs` (runtimes/pinning.ts). */

test('CPU lists parse as taskset prints them, ranges included', () => {
  assert.deepEqual(parseCpuList('0,1'), [0, 1]);
  assert.deepEqual(parseCpuList('0-3,8'), [0, 1, 2, 3, 8]);
  assert.deepEqual(parseCpuList(' 5 \n'), [5]);
  assert.deepEqual(parseCpuList('garbage'), []);
});

test('a command is wrapped in taskset -c <cpu> only when a CPU is given and taskset is there', () => {
  const cmd = { command: '/usr/bin/node', args: ['--expose-gc', 'w.js'], channel: 'fd3' as const };
  assert.equal(pinnedCommand(cmd, undefined), cmd);
  const pinned = pinnedCommand(cmd, 1);
  if (cpuPinning().tool === 'taskset')
    assert.deepEqual(pinned, { ...cmd, command: 'taskset', args: ['-c', '1', '/usr/bin/node', '--expose-gc', 'w.js'] });
  else assert.equal(pinned, cmd);
});

test(
  'a pinned process runs on the CPU it was given',
  { skip: cpuPinning().tool !== 'taskset' && `no taskset here: ${JSON.stringify(cpuPinning())}` },
  () => {
    const cpus = slotCpus(1);
    assert.ok(cpus && cpus.length === 1, `slot CPUs ${JSON.stringify(cpus)}`);
    const cmd = pinnedCommand({ command: 'sh', args: ['-c', 'taskset -cp $$'] }, cpus[0]);
    const r = spawnSync(cmd.command, cmd.args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`affinity list: ${cpus[0]}\\s*$`));
  },
);

test(
  'slots take the last CPUs this process may use, and ask for no more than there are',
  { skip: cpuPinning().tool !== 'taskset' && 'no taskset here' },
  () => {
    const all = parseCpuList(
      /:\s*([\d,\s-]+)\s*$/.exec(spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' }).stdout)![1],
    );
    assert.deepEqual(slotCpus(all.length), [...all].reverse());
    assert.equal(slotCpus(all.length + 1), null);
  },
);
