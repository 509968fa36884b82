import { basename } from 'node:path';
import { launchCommand, workerFlagsFor, type WorkerCommand } from './launch.js';
import { variantPathOf } from '../case/coordinates.js';
import { bundleWorker } from './bundle.js';
import { runProgram } from './cache.js';
import { parseProbe, PROBE_SCRIPT, type RuntimeProbe } from './node-like.js';
import { TargetError, type Detection, type Target } from './types.js';
import { parseSshAddress, remoteStep, scpArgs, shellQuote, shownAddress, sshArgs } from './ssh-address.js';
import { sshDotnetTarget } from './ssh-dotnet.js';

/**
 * `ssh://…`: a remote machine's Node over the system ssh/scp (or, with `?dotnet=` or `?mono=`, its .NET or Mono
 * running the C# worker: runtimes/ssh-dotnet.ts). Prepare makes a remote folder and copies the Node bundle and every
 * payload there once; each launch runs one remote worker process whose fd 3 is redirected to the ssh channel
 * (`3>&1 1>&2`), so samples stream back in the same protocol. A remote `timeout` (when present) kills a worker the
 * host gave up on. A failed copy or remote command says which step failed and what ssh/scp need (key login, no prompt).
 */
export function parseSsh(id: string): Target | undefined {
  const addr = parseSshAddress(id);
  if (!addr) return undefined;
  if (addr.dotnet || addr.mono) return sshDotnetTarget(addr);
  const shownId = shownAddress(addr);
  const hint = `install Node ≥ 20 on ${addr.host} or pass ?node=/path/to/node`;
  const probe = async (): Promise<RuntimeProbe> =>
    parseProbe(
      await runProgram('ssh', sshArgs(addr, `${shellQuote(addr.node)} -e ${shellQuote(PROBE_SCRIPT)}`), 60_000),
    );
  return {
    id: shownId,
    kind: 'ssh',
    runtime: 'node',
    installHint: hint,
    async detect(): Promise<Detection> {
      try {
        const p = await probe();
        return { installed: true, version: p.version, location: `${shownId} ${addr.node}` };
      } catch (e) {
        return {
          installed: false,
          reason: `${shownId} is not reachable or has no Node (${(e as Error).message}): ${hint}`,
        };
      }
    },
    async prepare(ctx) {
      let p: RuntimeProbe;
      try {
        p = await probe();
      } catch (e) {
        throw new TargetError(`${shownId} is not reachable or has no Node (${(e as Error).message}): ${hint}`);
      }
      const bundle = await bundleWorker('node', ctx.bundleDir);
      const dir = (
        await remoteStep('making a remote folder with ssh (mktemp -d)', addr, () =>
          runProgram('ssh', sshArgs(addr, 'mktemp -d /tmp/jsonbench-XXXXXX')),
        )
      ).trim();
      const files = [bundle.path, ...ctx.payloadPaths.flatMap((f) => [f, variantPathOf(f)])];
      await remoteStep(`copying the worker and ${ctx.payloadPaths.length} payload(s) to ${dir} with scp`, addr, () =>
        runProgram('scp', scpArgs(addr, files, dir), 300_000),
      );
      const node = shellQuote(addr.node);
      const flags = workerFlagsFor(ctx.profile);
      const worker = [node, ...flags, shellQuote(basename(bundle.path))].join(' ');
      return {
        info: {
          id: shownId,
          kind: 'ssh',
          runtime: p.runtime,
          version: p.version,
          engine: p.engine,
          engineVersion: p.engineVersion,
          flags,
          probe: { ...p, remoteDir: dir, node: addr.node },
          workerSha256: bundle.sha256,
        },
        launch: (job, timeoutMs) => {
          const remoteJob = { ...job, payloadPath: `${dir}/${basename(job.payloadPath)}` };
          delete remoteJob.configPath;
          const secs = Math.ceil(timeoutMs / 1000) + 5;
          const remote = `cd ${shellQuote(dir)} && if command -v timeout >/dev/null 2>&1; then exec timeout -s KILL ${secs} ${worker} 3>&1 1>&2; else exec ${worker} 3>&1 1>&2; fi`;
          const cmd: WorkerCommand = { command: 'ssh', args: sshArgs(addr, remote), channel: 'stdout' };
          return launchCommand(cmd, remoteJob, timeoutMs);
        },
        close: async () => {
          await runProgram('ssh', sshArgs(addr, `rm -rf ${shellQuote(dir)}`)).catch(() => {});
        },
      };
    },
  };
}
