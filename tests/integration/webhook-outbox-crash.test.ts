import { buildApp, createTestDatabase, TEST_DIALECTS, type App, type TestDatabase } from '@reelsmith/server/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, videoBody, waitFor } from './server-jobs-fakes.js';

/**
 * The webhook outbox across a crash: a server is killed (SIGKILL) right after a job's completion is
 * committed and before any webhook went out; the next server start sends the delivery of each of
 * the user's two endpoints, exactly once. Before the outbox, deliveries were written by a listener
 * after the commit, and this crash lost them.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

interface ServerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<NodeJS.Signals | number | null>;
}

let servers: ServerProcess[] = [];
afterEach(() => {
  for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  servers = [];
});

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/webhook-outbox-server.ts'], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const server = { child, output, exited };
  servers.push(server);
  await waitFor(
    async () => output.includes('ready') || child.exitCode !== null || child.signalCode !== null,
    'the server to start',
    60_000,
  );
  return server;
}

describe.each(TEST_DIALECTS)('webhook outbox across a crash on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  let receiver: Server;
  let receiverUrl = '';
  const received: Array<{ path: string; body: string }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // This process only takes requests (its queue never starts) and sends no webhook: the servers it spawns do.
    app = await buildApp(database.config({ WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { autoStart: false, runner: async () => Promise.reject(new Error('not here')), providersFor: () => ({}) as never },
    });
    await app.ready();
    await app.webhookDispatcher.stop();
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await database?.cleanup();
  });

  it('delivers a completion committed just before a SIGKILL after the restart, exactly once per endpoint', async () => {
    const user = await registerUser(app, 'outbox');
    for (const path of ['/first', '/second']) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: bearer(user),
        payload: { url: `${receiverUrl}${path}`, events: ['video.completed'] },
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    const submitted = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody('Outbox lighthouse'),
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { jobId } = submitted.json() as { jobId: string };
    const env = { ...database.env, WEBHOOK_ALLOW_PRIVATE: 'true' };

    // The first server completes the job and dies at once.
    const first = await startServer({ ...env, KILL_ON_COMPLETION: '1' });
    expect(await first.exited).toBe('SIGKILL');
    const row = await app.db.selectFrom('video_jobs').select(['status']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    expect(received).toEqual([]);
    const pending = await app.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).execute();
    expect(pending).toEqual([
      { status: 'pending', attempt_count: 0 },
      { status: 'pending', attempt_count: 0 },
    ]);

    // The next start sends what the outbox holds.
    await startServer(env);
    await waitFor(async () => received.length >= 2, 'both deliveries', 30_000);
    // Several more looks of the dispatcher: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(received.map((request) => request.path).sort()).toEqual(['/first', '/second']);
    for (const request of received) {
      const event = JSON.parse(request.body) as { type: string; data: { jobId: string; status: string } };
      expect(event).toMatchObject({ type: 'video.completed', data: { jobId, status: 'completed' } });
    }
    const delivered = await app.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).execute();
    expect(delivered.map((delivery) => [delivery.status, Number(delivery.attempt_count)])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  }, 180_000);
});
