// `npm run bench:web`: builds the web app and the extension, starts the real server on a free
// loopback port with a throw-away data folder, and runs Lighthouse (driving Debian's Chromium) on `/`
// for a visitor and for a signed-in creator, with the mobile and the desktop preset. It prints the
// figures; it never fails because the machine is slow.
import { STORAGE_KEYS } from '@reelsmith/contracts';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { gzipBytes, pageScripts, POPUP_JS_BUDGET_BYTES } from './extension-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];
const skipBuild = process.argv.includes('--no-build');
/** The word after `--name` on the command line, if the option is there. */
function optionValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** `--details` adds the LCP element, the long main-thread tasks and each script's CPU time to every row. */
const showDetails = process.argv.includes('--details');
/** `--preset mobile` (or desktop) runs one preset only, for quicker iterations. */
const onlyPreset = optionValue('--preset');
/** `--runs N` measures every page and preset N times and adds a median row: single Lighthouse runs swing by ±5 here. */
const runs = Math.max(1, Number(optionValue('--runs') ?? 1) || 1);
/** `--page visitor` (or signed-in) measures one page only. */
const onlyPage = optionValue('--page');
/**
 * `--cpu-slowdown N` slows the host N times in the mobile preset instead of Lighthouse's 4: on a fast
 * host (a high CPU index below) it stands for a slower one, e.g. N = 4 × this host's index / 1550 measures
 * as a host of index 1550 would with the preset. The figures are then not the preset's.
 */
const cpuSlowdown = optionValue('--cpu-slowdown') === undefined ? undefined : Number(optionValue('--cpu-slowdown'));
if (cpuSlowdown !== undefined && !(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown takes a number of 1 or more');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(origin: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not answer /health within 120 s');
}

async function signUpCreator(origin: string): Promise<{ token: string; user: unknown }> {
  const email = `bench-${Date.now()}@bench.reelsmith.test`;
  const password = 'bench-password-1234';
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<{ token: string; user: unknown }>;
  };
  await post('/auth/register', { name: 'Bench Creator', email, password });
  return post('/auth/login', { email, password });
}

/** Lighthouse recorded no usable trace (it says to run it again, e.g. NO_NAVSTART). */
class LighthouseRunError extends Error {}

/** Lighthouse's own recording fails now and then on a busy machine; such a run is repeated (twice at most). */
async function measure(url: string, preset: 'mobile' | 'desktop', session: { token: string; user: unknown } | null): Promise<Figures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouse(url, preset, session);
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt === 3) throw error;
      console.log(`  Lighthouse could not measure this page (${error.message}); running it again`);
    }
  }
}

interface Figures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  firstLoadJsBytes: number;
  totalBytes: number;
  /**
   * Lighthouse's own measure of this host's CPU (lhr.environment.benchmarkIndex). The mobile preset
   * slows the host 4x whatever its speed, so TBT and the score move with the host: Lighthouse expects
   * an index of at least 1000 and warns below it. Figures from hosts far apart are not comparable.
   */
  hostCpuIndex: number;
  /** What moved, when something did (Lighthouse's layout-shifts audit). */
  shifted: string[];
  /** Accessibility audits that failed. */
  accessibilityFailures: string[];
  /** With --details: where the time went. */
  details: string[];
}

async function runLighthouse(
  url: string,
  preset: 'mobile' | 'desktop',
  session: { token: string; user: unknown } | null,
): Promise<Figures> {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    if (session) {
      // The studio restores its session from localStorage (auth-store.ts); Lighthouse keeps storage with disableStorageReset.
      await page.goto(new URL('/health', url).href);
      await page.evaluate(
        (keys, persisted) => {
          localStorage.setItem(keys.token, persisted.token);
          localStorage.setItem(
            keys.authStore,
            JSON.stringify({ state: { user: persisted.user, token: persisted.token, apiKey: null, isAuthenticated: true }, version: 0 }),
          );
        },
        { token: STORAGE_KEYS.token, authStore: STORAGE_KEYS.authStore },
        session,
      );
    }
    const result = await lighthouse(
      url,
      {
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: session !== null,
        ...(preset === 'mobile' && cpuSlowdown !== undefined ? { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : {}),
      },
      preset === 'desktop' ? desktopConfig : undefined,
      page,
    );
    await browser.disconnect();
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (process.env.BENCH_WEB_TRACE)
      writeFileSync(
        `${process.env.BENCH_WEB_TRACE}-${preset}-${session ? 'in' : 'visitor'}.json`,
        JSON.stringify((result.artifacts as { Trace?: unknown }).Trace ?? null),
      );
    if (lhr.runtimeError) throw new LighthouseRunError(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests =
      (lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ??
      [];
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      fcpMs: audit('first-contentful-paint'),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      firstLoadJsBytes: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      totalBytes: audit('total-byte-weight'),
      hostCpuIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      shifted: (
        (lhr.audits['layout-shifts']?.details as { items?: Array<{ node?: { selector?: string }; score?: number }> } | undefined)?.items ??
        []
      ).map((item) => `${item.node?.selector ?? '?'} (${(item.score ?? 0).toFixed(3)})`),
      accessibilityFailures: (lhr.categories.accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
        .map((ref) => {
          const items = (lhr.audits[ref.id]?.details as { items?: Array<{ node?: { selector?: string } }> } | undefined)?.items ?? [];
          return `${ref.id}: ${items.map((item) => item.node?.selector ?? '?').join(', ')}`;
        }),
      details: showDetails ? [...describeTimings(lhr.audits), ...describeShifts(lhr.audits)] : [],
    };
  } finally {
    await chrome.kill();
  }
}

type Audits = Record<string, { numericValue?: number; details?: unknown } | undefined>;

/** What Lighthouse says caused each layout shift (a late image, a web font, injected content…). */
function describeShifts(audits: Audits): string[] {
  const items =
    (
      audits['layout-shifts']?.details as
        | {
            items?: Array<{
              node?: { selector?: string };
              score?: number;
              subItems?: { items?: Array<{ cause?: string; extra?: { value?: string } }> };
            }>;
          }
        | undefined
    )?.items ?? [];
  return items.map(
    (item) =>
      `shift ${(item.score ?? 0).toFixed(3)} ${item.node?.selector ?? '?'}: ${(item.subItems?.items ?? []).map((sub) => `${sub.cause ?? ''} ${sub.extra?.value ?? ''}`.trim()).join('; ') || 'no cause given'}`,
  );
}

/** The LCP element, the long tasks and the scripts' CPU time, as Lighthouse saw them. */
function describeTimings(audits: Audits): string[] {
  const itemsOf = (id: string) => (audits[id]?.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
  const lcpTable = itemsOf('largest-contentful-paint-element')[0] as
    { items?: Array<{ node?: { selector?: string; snippet?: string } }> } | undefined;
  const lcpNode = lcpTable?.items?.[0]?.node;
  const lcpPhases =
    (itemsOf('largest-contentful-paint-element')[1] as { items?: Array<{ phase?: string; timing?: number }> } | undefined)?.items ?? [];
  const shortUrl = (url: unknown) => String(url).replace(/^https?:\/\/[^/]+/, '');
  return [
    `LCP element: ${lcpNode?.selector ?? '?'} ${lcpNode?.snippet?.slice(0, 80) ?? ''}`,
    `LCP phases: ${lcpPhases.map((p) => `${p.phase} ${Math.round(p.timing ?? 0)} ms`).join(', ')}`,
    `long tasks: ${itemsOf('long-tasks')
      .slice(0, 8)
      .map((t) => `${Math.round(Number(t.duration))} ms @${Math.round(Number(t.startTime))} ${shortUrl(t.url)}`)
      .join('; ')}`,
    `main thread: ${itemsOf('mainthread-work-breakdown')
      .map((t) => `${t.groupLabel} ${Math.round(Number(t.duration))} ms`)
      .join('; ')}`,
    `script CPU: ${itemsOf('bootup-time')
      .slice(0, 6)
      .map((t) => `${shortUrl(t.url)} ${Math.round(Number(t.total))} ms`)
      .join('; ')}`,
  ];
}

/** The extension popup's JavaScript before its first frame, gzip-compressed as the issue counts it. */
function popupJsGzipBytes(): number | null {
  const dist = join(root, 'dist', 'extension');
  try {
    return gzipBytes(dist, pageScripts(dist, 'popup'));
  } catch {
    return null;
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each figure's own median over the runs (not one run's figures). */
function medianFigures(measured: Figures[]): Figures {
  const of = (pick: (figures: Figures) => number) => median(measured.map(pick));
  return {
    performance: of((f) => f.performance),
    accessibility: of((f) => f.accessibility),
    fcpMs: of((f) => f.fcpMs),
    lcpMs: of((f) => f.lcpMs),
    tbtMs: of((f) => f.tbtMs),
    cls: of((f) => f.cls),
    firstLoadJsBytes: of((f) => f.firstLoadJsBytes),
    totalBytes: of((f) => f.totalBytes),
    hostCpuIndex: of((f) => f.hostCpuIndex),
    shifted: [],
    accessibilityFailures: [],
    details: [],
  };
}

function row(visitor: boolean, preset: string, run: string, figures: Figures): Record<string, string | number> {
  return {
    page: visitor ? '/ visitor' : '/ signed in',
    preset,
    ...(run ? { run } : {}),
    performance: figures.performance,
    accessibility: figures.accessibility,
    'FCP ms': Math.round(figures.fcpMs),
    'LCP ms': Math.round(figures.lcpMs),
    'TBT ms': Math.round(figures.tbtMs),
    CLS: Number(figures.cls.toFixed(3)),
    'first-load JS (wire)': kb(figures.firstLoadJsBytes),
    'total bytes': kb(figures.totalBytes),
    'host CPU index': Math.round(figures.hostCpuIndex),
  };
}

async function main() {
  if (!skipBuild) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed');
  }
  const webAssets = join(root, 'dist', 'web', 'assets');
  const jsFiles = readdirSync(webAssets).filter((f) => f.endsWith('.js'));
  console.log(
    `web build: ${jsFiles.length} JavaScript files, ${kb(jsFiles.reduce((s, f) => s + readFileSync(join(webAssets, f)).length, 0))} uncompressed in all`,
  );
  const popup = popupJsGzipBytes();
  console.log(`extension popup JavaScript: ${popup === null ? 'not built' : `${kb(popup)} gzip (budget ${kb(POPUP_JS_BUDGET_BYTES)})`}`);

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-bench-web-'));
  const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // A fresh DATA_DIR would start making the gallery's example videos beside the measured page loads.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      GALLERY_EXAMPLES: 'off',
      RESEARCH_PROVIDER: 'off',
      VOICE_MODEL_URL: 'off',
    },
  });
  try {
    await waitForHealth(origin, server);
    const session = await signUpCreator(origin);
    const rows: Array<Record<string, string | number>> = [];
    for (const visitor of [true, false].filter((v) => !onlyPage || onlyPage === (v ? 'visitor' : 'signed-in'))) {
      for (const preset of (['mobile', 'desktop'] as const).filter((p) => !onlyPreset || p === onlyPreset)) {
        const measured: Figures[] = [];
        for (let run = 1; run <= runs; run++) {
          const figures = await measure(`${origin}/`, preset, visitor ? null : session);
          measured.push(figures);
          rows.push(row(visitor, preset, runs > 1 ? `run ${run}` : '', figures));
          console.log(JSON.stringify(rows.at(-1)));
          if (figures.shifted.length > 0) console.log(`  layout shifts: ${figures.shifted.join(', ')}`);
          for (const failure of figures.accessibilityFailures) console.log(`  accessibility: ${failure}`);
          for (const line of figures.details) console.log(`  ${line}`);
        }
        if (runs > 1) {
          rows.push(row(visitor, preset, `median of ${runs}`, medianFigures(measured)));
          console.log(JSON.stringify(rows.at(-1)));
        }
      }
    }
    console.table(rows);
    if (cpuSlowdown !== undefined) console.log(`mobile rows: CPU slowed ${cpuSlowdown}x (--cpu-slowdown), not the preset's 4x`);
    console.log(
      "host CPU index: Lighthouse's benchmarkIndex of this machine. The mobile preset slows it 4x whatever its speed, so TBT and the score " +
        'move with it (Lighthouse expects 1000 or more); compare figures measured on hosts of about the same index.',
    );
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
