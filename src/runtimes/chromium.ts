import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outcomeOf, restartsTimeout, type LaunchOutcome } from './launch.js';
import { variantPathOf } from '../case/coordinates.js';
import { decodeMessage, type WorkerJob } from '../worker/protocol.js';
import { bundleWorker } from './bundle.js';
import { runProgram } from './cache.js';
import { TargetError, type Detection, type Target, type TargetInfo } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/** Where the system browser is looked for when `--chromium-path` is not given. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Chromium's launch flags. The first seven are the (no sandbox as root in containers, no
 * GPU, no network chatter, no first-run UI); `--js-flags=--expose-gc` gives the worker gc() before
 * rounds, as on Node; `--enable-precise-memory-info` makes performance.memory exact to the byte for
 * the allocation estimate. A fresh user-data folder is made for every launch.
 */
export const CHROMIUM_FLAGS = deepFreeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--js-flags=--expose-gc',
  '--enable-precise-memory-info',
]);

/** The page the worker runs in, served by request interception with COOP/COEP so it is cross-origin isolated (5 µs timers instead of 100 µs). */
const PAGE_URL = 'http://jsonbench.localhost/';
const PAGE_HEADERS = {
  'content-type': 'text/html',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};
const TAIL = 2048;

/** `Chromium 156.0.8078.108 built on …` → `156.0.8078.108`. */
export function parseChromiumVersion(text: string): string | undefined {
  return /(?:Chromium|Chrome)\s+([\d.]+)/.exec(text)?.[1];
}

type PW = typeof import('playwright-core');

/** Removes a user-data folder; a browser still writing into it as it exits is retried, then left (never throws). */
function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch {
    /* left in tmp */
  }
}

/**
 * Runs one job in a fresh headless Chromium: loads the browser bundle into a cross-origin
 * isolated page, hands it the job and the payload texts, streams its protocol lines back through
 * an exposed function. Closes the browser after `timeoutMs`. Never rejects.
 */
async function launchInChromium(
  pw: PW,
  executablePath: string,
  bundleText: string,
  job: WorkerJob,
  timeoutMs: number,
  info: { version: string },
): Promise<LaunchOutcome> {
  const started = performance.now();
  const outcome = outcomeOf([], null);
  const userDataDir = mkdtempSync(join(tmpdir(), 'jsonbench-chromium-'));
  let context: Awaited<ReturnType<PW['chromium']['launchPersistentContext']>> | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const texts = {
      [job.payloadPath]: readFileSync(job.payloadPath, 'utf8'),
      [variantPathOf(job.payloadPath)]: readFileSync(variantPathOf(job.payloadPath), 'utf8'),
    };
    context = await pw.chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: timeoutMs,
    });
    const ctx = context;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        outcome.timedOut = true;
        void ctx.close().catch(() => {});
      }, timeoutMs);
    };
    arm();
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('console', (m) => {
      const k = m.type() === 'error' || m.type() === 'warning' ? 'stderrTail' : 'stdoutTail';
      outcome[k] = (outcome[k] + m.text() + '\n').slice(-TAIL);
    });
    page.on('pageerror', (e) => {
      outcome.stderrTail = (outcome.stderrTail + String(e) + '\n').slice(-TAIL);
    });
    page.on('crash', () => {
      outcome.signal = 'SIGSEGV';
      outcome.stderrTail += 'the page crashed\n';
    });
    await page.exposeFunction('__jsonbenchSend', (line: string) => {
      try {
        const m = decodeMessage(line.trim());
        outcome.messages.push(m);
        if (restartsTimeout(m)) arm();
      } catch (e) {
        outcome.protocolError ??= (e as Error).message;
      }
    });
    await page.route(PAGE_URL, (route) =>
      route.fulfill({ status: 200, headers: PAGE_HEADERS, body: '<!doctype html><title>jsonbench worker</title>' }),
    );
    await page.goto(PAGE_URL);
    await page.addScriptTag({ content: bundleText });
    await page.evaluate(
      ([j, t, v]) => {
        const w = globalThis as unknown as {
          __jsonbenchRun(job: unknown, bridge: unknown): Promise<void>;
          __jsonbenchSend(l: string): Promise<void>;
        };
        return w.__jsonbenchRun(j, {
          send: (l: string) => {
            void w.__jsonbenchSend(l);
          },
          texts: t,
          runtime: 'chromium',
          version: v,
        });
      },
      [job, texts, info.version] as const,
    );
    // bindings are delivered in order; give the last ones a moment to arrive
    for (let i = 0; i < 50 && !outcome.messages.some((m) => m.type === 'done' || m.type === 'error'); i++)
      await new Promise((r) => setTimeout(r, 20));
    outcome.exitCode = 0;
  } catch (e) {
    if (!outcome.timedOut)
      outcome.stderrTail = (outcome.stderrTail + `chromium: ${(e as Error).message.split('\n')[0]}\n`).slice(-TAIL);
    if (!outcome.timedOut && !outcome.signal) outcome.exitCode = 1;
  } finally {
    clearTimeout(timer);
    await context?.close().catch(() => {});
    removeQuietly(userDataDir);
    outcome.elapsedMs = performance.now() - started;
  }
  return outcome;
}

/** The playwright-core this jsonbench is tested with (package.json devDependencies; test/install/dev-only.test.ts keeps them equal). */
export const PLAYWRIGHT_VERSION = '1.65.1';

/** How to add playwright-core, which drives Chromium: a devDependency, absent from a production install. */
export const PLAYWRIGHT_HINT = `npm install --no-save playwright-core@${PLAYWRIGHT_VERSION} in the jsonbench folder (or npm ci with the devDependencies)`;

/**
 * playwright-core, loaded only when a chromium target runs (a devDependency: a production install,
 * `npm ci --omit=dev`, has none). @throws TargetError saying how to add it when it is not installed
 */
async function loadPlaywright(): Promise<PW> {
  try {
    return await import('playwright-core');
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new TargetError(`the chromium target needs playwright-core, which is not installed: ${PLAYWRIGHT_HINT}`);
  }
}

/** `chromium`: the system's headless Chromium (V8), driven with playwright-core (a devDependency, see {@link PLAYWRIGHT_HINT}). */
export function parseChromium(id: string): Target | undefined {
  if (id !== 'chromium') return undefined;
  const hint = `apt-get install -y chromium (or pass --chromium-path); and ${PLAYWRIGHT_HINT}`;
  const where = (p?: string) => p ?? DEFAULT_CHROMIUM_PATH;
  const detect = async (path: string): Promise<Detection> => {
    if (!existsSync(path))
      return {
        installed: false,
        reason: `chromium is not installed at ${path}: run \`${hint.split(' (')[0]}\` or pass --chromium-path`,
      };
    try {
      const version = parseChromiumVersion(await runProgram(path, ['--version'], 30_000));
      return version
        ? { installed: true, version, location: path }
        : { installed: false, reason: `${path} --version did not name a Chromium version` };
    } catch (e) {
      return { installed: false, reason: `chromium at ${path} does not start (${(e as Error).message})` };
    }
  };
  return {
    id,
    kind: 'chromium',
    runtime: 'chromium',
    installHint: hint,
    detect: (ctx) => detect(where(ctx.chromiumPath)),
    async prepare(ctx) {
      const path = where(ctx.chromiumPath);
      const d = await detect(path);
      if (!d.installed) throw new TargetError(d.reason);
      const pw = await loadPlaywright();
      const bundle = await bundleWorker('browser', ctx.bundleDir);
      const probe: Record<string, unknown> = { executable: path };
      try {
        const dir = mkdtempSync(join(tmpdir(), 'jsonbench-chromium-'));
        const c = await pw.chromium.launchPersistentContext(dir, {
          executablePath: path,
          headless: true,
          args: CHROMIUM_FLAGS,
        });
        const page = c.pages()[0] ?? (await c.newPage());
        const cdp = await c.newCDPSession(page);
        Object.assign(probe, await cdp.send('Browser.getVersion'));
        await page.route(PAGE_URL, (route) =>
          route.fulfill({ status: 200, headers: PAGE_HEADERS, body: '<!doctype html>' }),
        );
        await page.goto(PAGE_URL);
        Object.assign(
          probe,
          await page.evaluate(() => ({
            crossOriginIsolated: globalThis.crossOriginIsolated,
            cores: navigator.hardwareConcurrency,
            gc: typeof (globalThis as { gc?: unknown }).gc === 'function',
          })),
        );
        await c.close();
        removeQuietly(dir);
      } catch (e) {
        throw new TargetError(
          `chromium failed to start (${(e as Error).message.split('\n')[0]}): check ${path} or pass --chromium-path`,
        );
      }
      const info: TargetInfo = {
        id,
        kind: 'chromium',
        runtime: 'chromium',
        version: d.version,
        engine: 'V8',
        engineVersion: String(probe.jsVersion ?? 'unknown'),
        flags: CHROMIUM_FLAGS,
        probe,
        workerSha256: bundle.sha256,
      };
      const bundleText = readFileSync(bundle.path, 'utf8');
      return { info, launch: (job, timeoutMs) => launchInChromium(pw, path, bundleText, job, timeoutMs, info) };
    },
  };
}
