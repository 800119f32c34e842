import { buildApp, createTestDatabase, type TestDatabase } from '@reelsmith/server/testing';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Probes and scrapes (GET /health, /ready, /metrics) arrive every few seconds: their request lines
 * are written only at LOG_LEVEL=debug, while every other request is still logged at info.
 */
describe('request logging of probes and scrapes', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  async function logged(level: 'info' | 'debug'): Promise<string[]> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp(database.config({ LOG_LEVEL: level }), { voices: { autoGenerateOfflineSamples: false }, logStream: stream });
    try {
      await app.ready();
      for (const url of ['/health', '/ready', '/metrics', '/api/videos']) await app.inject({ method: 'GET', url });
    } finally {
      await app.close();
    }
    return lines
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
      .filter((entry) => entry.msg === 'incoming request')
      .map((entry) => entry.req!.url!);
  }

  it('at info: only the other requests', async () => {
    expect(await logged('info')).toEqual(['/api/videos']);
  });

  it('at debug: the probes and scrapes too', async () => {
    expect(await logged('debug')).toEqual(['/health', '/ready', '/metrics', '/api/videos']);
  });
});
