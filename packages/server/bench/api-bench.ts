/**
 * API reliability benchmark, loopback only, stops by itself (about 35 s):
 *   GET /health                      autocannon, 50 connections, 8 s after a 2 s warm-up
 *   GET /api/videos/:id/status       autocannon, 50 connections, 8 s after a 2 s warm-up, signed in
 *   socket fan-out                   one job's progress to 1,000 subscribed socket.io clients
 *
 *   npm run bench:api
 *
 * The server runs in this process on a fresh SQLite DATA_DIR (offline defaults). Other work on the
 * machine slows every figure; they are printed, never asserted.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { recordVideoMade } from '../src/payments/subscription-state.js';

const CLIENTS = 1000;
const FANOUT_EVENTS = 20;
const HTTP_SECONDS = 8;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const WARM_UP_SECONDS = 2;

async function httpBench(title: string, url: string, headers: Record<string, string> = {}) {
  // The first second runs cold code (JIT, statement and token caches filling) at a fraction of the
  // steady rate and would own the p99; a server in service is warm, so that second is not counted.
  await autocannon({ url, connections: 50, duration: WARM_UP_SECONDS, headers, workers: 1 });
  // The load generator runs in a worker thread, so it does not share the server's event loop.
  const result = await autocannon({ url, connections: 50, duration: HTTP_SECONDS, headers, workers: 1 });
  const non2xx = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(32)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx/errors ${non2xx}`,
  );
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_AUTH_MAX: '100000',
  });
  const app = await buildApp(config, { voices: { autoGenerateOfflineSamples: false } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const registered = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Bench User', email: `bench-${randomUUID()}@example.com`, password: 'bench-password' },
    });
    const { token, user } = registered.json() as { token: string; user: { id: string } };
    // A finished job to read: inserted directly so no render competes with the measurement.
    const jobId = randomUUID();
    const at = new Date().toISOString();
    await app.db
      .insertInto('video_jobs')
      .values({
        id: jobId,
        user_id: user.id,
        status: 'completed',
        params: JSON.stringify({ topic: 'Bench', style: 'educational', language: 'en', duration: 30, voice: 'en-male-1' }),
        progress: 100,
        steps: '{}',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordVideoMade(app.db, { jobId, userId: user.id, createdAt: at });

    console.log(`Reelsmith API bench (loopback, ${HTTP_SECONDS} s per route, 50 connections)`);
    await httpBench('GET /health', `${base}/health`);
    await httpBench('GET /api/videos/:id/status', `${base}/api/videos/${jobId}/status`, { authorization: `Bearer ${token}` });

    // Fan-out: 1,000 clients subscribed to one job; each progress event's delivery time to every client.
    const sockets: Socket[] = [];
    for (let i = 0; i < CLIENTS; i += 1) {
      const socket = connectSocket(base, {
        path: '/socket.io/',
        transports: ['websocket'],
        auth: { token },
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
    }
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve, reject) =>
            socket.connected ? resolve() : (socket.once('connect', () => resolve()), socket.once('connect_error', reject)),
          ),
      ),
    );
    await Promise.all(sockets.map((socket) => socket.timeout(10_000).emitWithAck('subscribe', jobId)));
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let received = 0;
    for (const socket of sockets) {
      socket.on('job_progress', (event: { progress: number }) => {
        const start = sentAt.get(event.progress);
        if (start !== undefined) latencies.push(performance.now() - start);
        received += 1;
      });
    }
    for (let n = 0; n < FANOUT_EVENTS; n += 1) {
      const progress = 10 + n * 4;
      sentAt.set(progress, performance.now());
      app.jobEvents.emit('job_progress', { jobId, progress, step: 'images', stepProgress: n * 5, status: 'processing' }, user.id);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const deadline = Date.now() + 10_000;
    while (received < CLIENTS * FANOUT_EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    latencies.sort((a, b) => a - b);
    console.log(
      `socket fan-out to ${CLIENTS} clients     ${FANOUT_EVENTS} events, ${latencies.length}/${CLIENTS * FANOUT_EVENTS} deliveries   p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    for (const socket of sockets) socket.disconnect();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
