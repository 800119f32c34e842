import type { ReadinessResponse } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import type { FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Requests that reach the server while it closes (pipelined or on a busy keep-alive connection) get
 * the documented answers, not Fastify's generic 503: GET /ready its `{ ready, draining, checks }`
 * body, anything else a 503 saying the server is shutting down.
 */
describe('requests arriving while the server closes', () => {
  let database: TestDatabase;
  let app: App;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config(), {
      voices: { autoGenerateOfflineSamples: false },
      plugins: [
        async (instance: FastifyInstance) => {
          instance.get('/test-held', async () => {
            await held;
            return { ok: true };
          });
        },
      ],
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(async () => {
    release();
    await app?.close().catch(() => undefined);
    await database?.cleanup();
  });

  /**
   * One keep-alive connection: the held request, then (once its answer is in) `second` on the same
   * connection, as a load balancer's probe or a browser's next request would come; resolves with
   * everything the server wrote back.
   */
  function keepAlive(port: number, second: string): { written: Promise<void>; answer: Promise<string> } {
    const socket = connect(port, '127.0.0.1');
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`;
    let text = '';
    let sentSecond = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!sentSecond && text.includes('{"ok":true}')) {
        sentSecond = true;
        socket.write(request(second));
      }
    });
    const answer = new Promise<string>((resolve) => {
      socket.on('close', () => resolve(text));
      setTimeout(() => (socket.destroy(), resolve(text)), 15_000).unref();
    });
    const written = new Promise<void>((resolve) => socket.write(request('/test-held'), () => resolve()));
    return { written, answer };
  }

  it('answers /ready with its body and other routes with a 503 of their own', async () => {
    const port = (app.server.address() as { port: number }).port;
    const ready = keepAlive(port, '/ready');
    const other = keepAlive(port, '/api/videos');
    await Promise.all([ready.written, other.written]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const [readyText, otherText] = await Promise.all([ready.answer, other.answer]);
    await closed;

    const readyAnswer = readyText.split('HTTP/1.1 ').slice(1)[1]!;
    expect(readyAnswer).toMatch(/^503 /);
    const body = JSON.parse(readyAnswer.slice(readyAnswer.indexOf('\r\n\r\n') + 4)) as ReadinessResponse;
    expect(body).toMatchObject({ ready: false, draining: true });
    expect(Object.keys(body.checks).sort()).toEqual(['database', 'queue', 'storage']);

    const otherAnswer = otherText.split('HTTP/1.1 ').slice(1)[1]!;
    expect(otherAnswer).toMatch(/^503 /);
    expect(otherAnswer).toMatch(/connection: close/i);
    expect(otherAnswer).toContain('shutting down');
  }, 60_000);
});
