import { basename } from 'node:path';
import { launchCommand, workerFlagsFor, type WorkerCommand } from './launch.js';
import { variantPathOf } from '../case/coordinates.js';
import { bundleWorker } from './bundle.js';
import { runProgram } from './cache.js';
import { parseProbe, PROBE_SCRIPT, type RuntimeProbe } from './node-like.js';
import { TargetError, type Detection, type Target } from './types.js';

/** A parsed `ssh://user@host[:port][?node=/path/to/node&identity=/key&known_hosts=/file]`. */
export interface SshAddress {
  user: string;
  host: string;
  port: number;
  /** the remote Node (default `node` on the remote PATH) */
  node: string;
  /** private key file (`ssh -i`); default: the user's ssh setup */
  identity?: string;
  /** known_hosts file to check and record the host key in (accept-new); default: the user's */
  knownHosts?: string;
}

/** Quotes a word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A user name ssh can take as an argument: POSIX portable characters, never a leading `-` (an option). */
const SSH_USER = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/;
/** A DNS host name (RFC 1123 labels), an IPv4 address, or a bracketed IPv6 address (as URL gives it). */
const SSH_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/;

/** Parses an ssh target; undefined when the string is not `ssh://…`. @throws TargetError on a malformed one */
export function parseSshAddress(target: string): SshAddress | undefined {
  if (!target.startsWith('ssh://')) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new TargetError(`${target}: not a valid ssh://user@host[:port] address`);
  }
  if (!url.hostname || !url.username) throw new TargetError(`${target}: expected ssh://user@host[:port]`);
  let user: string;
  try {
    user = decodeURIComponent(url.username);
  } catch {
    throw new TargetError(`${target}: the user is not valid percent-encoding`);
  }
  // both reach ssh and scp as arguments: neither may look like an option or carry shell or ssh syntax
  if (!SSH_USER.test(user))
    throw new TargetError(
      `${target}: user ${JSON.stringify(user)} is not a valid user name (letters, digits, . _ - and not starting with -)`,
    );
  if (!SSH_HOST.test(url.hostname))
    throw new TargetError(
      `${target}: host ${JSON.stringify(url.hostname)} is not a host name, an IPv4 address or a [bracketed] IPv6 address`,
    );
  const q = url.searchParams;
  for (const k of ['node', 'identity', 'known_hosts']) {
    if (/[\x00-\x1f\x7f]/.test(q.get(k) ?? '')) throw new TargetError(`${target}: ?${k}= holds a control character`);
  }
  return {
    user,
    host: url.hostname,
    port: url.port ? Number(url.port) : 22,
    node: q.get('node') ?? 'node',
    ...(q.get('identity') ? { identity: q.get('identity')! } : {}),
    ...(q.get('known_hosts') ? { knownHosts: q.get('known_hosts')! } : {}),
  };
}

/** Options shared by ssh and scp (`-p`/`-P` for the port is added by the caller). */
function commonOptions(a: SshAddress): string[] {
  return [
    '-o',
    'BatchMode=yes',
    '-o',
    'ConnectTimeout=15',
    ...(a.identity ? ['-i', a.identity, '-o', 'IdentitiesOnly=yes'] : []),
    ...(a.knownHosts ? ['-o', `UserKnownHostsFile=${a.knownHosts}`, '-o', 'StrictHostKeyChecking=accept-new'] : []),
  ];
}
/** ssh's arguments: options, then `--` so the destination can never be read as an option, then the remote command. */
export const sshArgs = (a: SshAddress, remote: string) => [
  ...commonOptions(a),
  '-p',
  String(a.port),
  '--',
  `${a.user}@${a.host}`,
  remote,
];
/** scp's arguments: options, `--`, the local files and the remote folder. */
export const scpArgs = (a: SshAddress, files: string[], remoteDir: string) => [
  ...commonOptions(a),
  '-q',
  '-P',
  String(a.port),
  '--',
  ...files,
  `${a.user}@${a.host}:${remoteDir}/`,
];

/**
 * `ssh://…`: a remote machine's Node over the system ssh/scp. Prepare makes a remote folder and
 * copies the Node bundle and every payload there once; each launch runs one remote worker process
 * whose fd 3 is redirected to the ssh channel (`3>&1 1>&2`), so samples stream back in the same
 * protocol. A remote `timeout` (when present) kills a worker the host gave up on.
 */
export function parseSsh(id: string): Target | undefined {
  const addr = parseSshAddress(id);
  if (!addr) return undefined;
  const shownId = `ssh://${addr.user}@${addr.host}${addr.port !== 22 ? `:${addr.port}` : ''}`;
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
      const dir = (await runProgram('ssh', sshArgs(addr, 'mktemp -d /tmp/jsonbench-XXXXXX'))).trim();
      const files = [bundle.path, ...ctx.payloadPaths.flatMap((f) => [f, variantPathOf(f)])];
      await runProgram('scp', scpArgs(addr, files, dir), 300_000);
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
