import { TargetError } from './types.js';

/**
 * `ssh://user@host[:port][?node=…|dotnet=…|mono=…][&identity=…][&known_hosts=…]`: a remote machine reached with the
 * system ssh and scp. Parsed here, used by runtimes/ssh.ts (a remote Node) and runtimes/ssh-dotnet.ts (a remote
 * .NET or Mono running the C# worker).
 */

/** A parsed ssh target. */
export interface SshAddress {
  user: string;
  host: string;
  port: number;
  /** the remote Node (default `node` on the remote PATH); ignored when `dotnet` or `mono` is given */
  node: string;
  /** the remote `dotnet` (its runtimes run the C# worker, built on this host for the remote's newest .NET major) */
  dotnet?: string;
  /** the remote `mono` (it runs the C# worker's net462 build) */
  mono?: string;
  /** private key file (`ssh -i`); default: the user's ssh setup */
  identity?: string;
  /** known_hosts file to check and record the host key in (accept-new); default: the user's */
  knownHosts?: string;
}

/** The query keys an ssh target takes; any other is refused, naming it (issue 26: `?bogus=1` was ignored silently). */
const SSH_QUERY_KEYS = ['node', 'dotnet', 'mono', 'identity', 'known_hosts'] as const;

/** Quotes a word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A user name ssh can take as an argument: POSIX portable characters, never a leading `-` (an option). */
const SSH_USER = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/;
/** A DNS host name (RFC 1123 labels), an IPv4 address, or a bracketed IPv6 address (as URL gives it). */
const SSH_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/;

/**
 * Parses an ssh target; undefined when the string is not `ssh://…`.
 * @throws TargetError on a malformed one: a user or host ssh could read as an option, a query key it does not take
 *   (named, with the keys it takes), a key given twice or empty, more than one of node/dotnet/mono, a control character
 */
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
  for (const k of new Set(q.keys())) {
    if (!(SSH_QUERY_KEYS as readonly string[]).includes(k))
      throw new TargetError(
        `${target}: ?${k}= is not a key of an ssh target (it takes ${SSH_QUERY_KEYS.map((x) => `?${x}=`).join(', ')})`,
      );
    if (q.getAll(k).length > 1) throw new TargetError(`${target}: ?${k}= is given more than once`);
    if (!q.get(k)) throw new TargetError(`${target}: ?${k}= is empty (give a path)`);
    if (/[\x00-\x1f\x7f]/.test(q.get(k)!)) throw new TargetError(`${target}: ?${k}= holds a control character`);
  }
  const runtimes = (['node', 'dotnet', 'mono'] as const).filter((k) => q.has(k));
  if (runtimes.length > 1)
    throw new TargetError(
      `${target}: ${runtimes.map((k) => `?${k}=`).join(' and ')}: an ssh target runs one runtime (give one target per runtime)`,
    );
  return {
    user,
    host: url.hostname,
    port: url.port ? Number(url.port) : 22,
    node: q.get('node') ?? 'node',
    ...(q.get('dotnet') ? { dotnet: q.get('dotnet')! } : {}),
    ...(q.get('mono') ? { mono: q.get('mono')! } : {}),
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
/** scp's arguments: options (`-r` for folders), `--`, the local files and the remote folder. */
export const scpArgs = (a: SshAddress, files: string[], remoteDir: string, recursive = false) => [
  ...commonOptions(a),
  '-q',
  ...(recursive ? ['-r'] : []),
  '-P',
  String(a.port),
  '--',
  ...files,
  `${a.user}@${a.host}:${remoteDir}/`,
];

/** `ssh://user@host:port`, as a target id shows it (the port only when it is not 22). */
export function shownAddress(a: SshAddress): string {
  return `ssh://${a.user}@${a.host}${a.port !== 22 ? `:${a.port}` : ''}`;
}

/**
 * What ssh and scp need of the user, said where a step fails: jsonbench runs both with BatchMode=yes (no password or
 * passphrase prompt), so the login must work with a key and ask for nothing (docs/targets.md shows the setup).
 */
function sshSetupHint(a: SshAddress): string {
  return `jsonbench copies with scp and starts workers with ssh, both with BatchMode=yes: \`ssh -p ${a.port} ${a.user}@${a.host} true\` must log in with a key and ask nothing (ssh-keygen, ssh-copy-id, ssh-agent or ?identity=/path/to/key; docs/targets.md)`;
}

/**
 * Runs one remote step, turning its failure into a sentence that says which step failed, what ssh or scp said, and
 * what they need (`scp: Connection closed` alone named neither the step nor the cause). @throws TargetError
 */
export async function remoteStep<T>(what: string, a: SshAddress, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw new TargetError(`${shownAddress(a)}: ${what} failed (${(e as Error).message}); ${sshSetupHint(a)}`);
  }
}
