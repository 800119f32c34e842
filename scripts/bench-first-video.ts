/**
 * A newcomer's first video on a fresh server against one on the same server once it has settled:
 *
 *   npm run bench:first-video [-- --settle-minutes 30 --duration 30]
 *
 * Starts the server as `npm start` does (scripts/start.mjs) on a fresh DATA_DIR, so in its first
 * minutes it makes the gallery's three example videos and the voice preview samples. A newcomer
 * signs up at once and makes a video; the bench then waits until the gallery is ready and every
 * sample is made (the server settled) and a second newcomer makes the same video. Both times are
 * printed with the machine's load (`uptime`) beside them: background work that yields makes the
 * first no slower than the second. Offline providers, research off: nothing leaves this machine.
 */
import {
  galleryResponseSchema,
  generateVideoBodySchema,
  generateVideoResponseSchema,
  jobStatusResponseSchema,
  voiceSampleStatsSchema,
} from '@reelsmith/contracts';
import { getVoices } from '@reelsmith/pipeline';
import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const SETTLE_MINUTES = argument('settle-minutes', 30);
const DURATION = argument('duration', 30);
/** The studio follows a job over socket.io; the bench asks this often, which the gate barely notices. */
const STATUS_POLL_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function json(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

interface Timed {
  seconds: number;
  loadBefore: string;
  loadAfter: string;
}

/** A newcomer signs up and makes one video; the time is from the submit to the finished video. */
async function newcomersVideo(origin: string): Promise<Timed> {
  const email = `newcomer-${randomUUID()}@bench.reelsmith.test`;
  const registered = (await json(`${origin}/auth/register`, {
    method: 'POST',
    body: JSON.stringify({ name: 'Newcomer', email, password: 'bench-password-123' }),
  })) as { token: string };
  const headers = { authorization: `Bearer ${registered.token}` };
  const body = generateVideoBodySchema.parse({
    topic: 'How lighthouses guided ships before GPS',
    style: 'educational',
    language: 'en',
    duration: DURATION,
    voice: getVoices('offline', 'en')[0]!.id,
    resolution: '9:16',
    enableCaptions: true,
    captionStyle: 'tiktok',
    enableZoom: true,
  });
  const loadBefore = uptime();
  const started = performance.now();
  const { jobId } = generateVideoResponseSchema.parse(
    await json(`${origin}/api/videos/generate`, { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  for (;;) {
    await sleep(STATUS_POLL_MS);
    const job = jobStatusResponseSchema.parse(await json(`${origin}/api/videos/${jobId}/status`, { headers }));
    if (job.status === 'completed') break;
    if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`The video ${job.status}: ${JSON.stringify(job.error)}`);
  }
  return { seconds: (performance.now() - started) / 1000, loadBefore, loadAfter: uptime() };
}

/** Waits until the gallery is ready and every voice sample is made: the server's background work is done. */
async function settled(origin: string): Promise<string> {
  const deadline = Date.now() + SETTLE_MINUTES * 60_000;
  let last = '';
  while (Date.now() < deadline) {
    const gallery = galleryResponseSchema.parse(await json(`${origin}/api/gallery`));
    const samples = voiceSampleStatsSchema.parse(await json(`${origin}/api/voice-samples/stats`));
    const state = `gallery ${gallery.state} (${gallery.examples.length}/3), voice samples ${samples.available}/${samples.total}`;
    if (state !== last) console.log(`  ${new Date().toISOString().slice(11, 19)} ${state}`);
    last = state;
    if ((gallery.state === 'ready' || gallery.state === 'off') && samples.available === samples.total) return state;
    await sleep(10_000);
  }
  return `${last} (not settled after ${SETTLE_MINUTES} min)`;
}

async function main() {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-first-video-'));
  const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    // Its own process group: the bench ends the server and everything it started.
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RESEARCH_PROVIDER: 'off',
      VOICE_MODEL_URL: 'off',
    },
  });
  const stop = () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // Already ended.
    }
  };
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    const bootStarted = performance.now();
    for (;;) {
      if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}) before it answered`);
      try {
        if ((await fetch(`${origin}/health`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - bootStarted > 180_000) throw new Error('The server did not answer /health within 3 minutes');
      await sleep(250);
    }
    console.log(`fresh server on ${origin}, DATA_DIR ${dataDir}, up in ${((performance.now() - bootStarted) / 1000).toFixed(1)} s`);
    // A newcomer arrives a few seconds after the start, as the gallery's work begins.
    await sleep(6_000);
    const fresh = await newcomersVideo(origin);
    console.log(`first video, fresh server:   ${fresh.seconds.toFixed(1)} s`);
    console.log('waiting for the server to settle (gallery examples and voice samples made)…');
    const state = await settled(origin);
    const calm = await newcomersVideo(origin);
    console.log(`first video, settled server: ${calm.seconds.toFixed(1)} s (${state})`);
    console.log('');
    console.log(`${DURATION} s 9:16 video, offline providers      seconds   load before → after (uptime)`);
    console.log(
      `fresh server (gallery and samples pending)  ${fresh.seconds.toFixed(1).padStart(6)}   ${fresh.loadBefore} → ${fresh.loadAfter}`,
    );
    console.log(
      `settled server                              ${calm.seconds.toFixed(1).padStart(6)}   ${calm.loadBefore} → ${calm.loadAfter}`,
    );
    console.log(`fresh / settled: ${(fresh.seconds / calm.seconds).toFixed(2)} (other work on the machine moves both; compare the loads)`);
  } finally {
    stop();
    await sleep(1_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
