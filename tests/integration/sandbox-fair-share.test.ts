import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, subscribe } from './server-jobs-fakes.js';

/**
 * The sandbox pool's threads are shared fairly: four accounts that each keep 3 links open to a page
 * Readability needs seconds for (650 KB of 59,000 empty <div>s, inside the size and element limits)
 * hold one thread each at most, and a fifth user's link is read in its turn instead of getting
 * "server is busy" after 20 s.
 */
const PARAGRAPH =
  '<p>The lighthouse lens gathers the light of the lamp into a single beam that sailors can see from thirty kilometres away at night.</p>';
const ARTICLE = `<html><head><title>Lighthouses</title></head><body><article><h1>Lighthouses</h1>${PARAGRAPH.repeat(8)}</article></body></html>`;
const HEAVY = `<html><head><title>Heavy</title></head><body>${'<div></div>'.repeat(59_000)}</body></html>`;

describe('link reading shares the sandbox threads between accounts', () => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let pages: Server;
  let pagesUrl: string;

  beforeAll(async () => {
    pages = createServer((request, response) => {
      const body = request.url === '/article' ? ARTICLE : HEAVY;
      response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', SOURCE_ALLOW_PRIVATE: 'true' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    pages?.close();
  });

  const link = (url: string) => ({ style: 'educational', language: 'en', duration: 30, voice: 'en-us-m3', source: { kind: 'url', url } });

  it("reads a fifth user's link while four accounts keep 3 heavy pages each in the pool", async () => {
    expect(HEAVY.length).toBeGreaterThan(640_000);
    const attackers = await Promise.all([1, 2, 3, 4].map(async (index) => registerUser(app, `heavy-${index}`)));
    const victim = await registerUser(app, 'link-victim');
    for (const user of [...attackers, victim]) await subscribe(app, user.id, 'pro_plan');
    const heavy = attackers.flatMap((user) =>
      [1, 2, 3].map(async (index) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/videos/generate',
          headers: bearer(user),
          payload: link(`${pagesUrl}/heavy-${index}`),
        });
        return response.statusCode;
      }),
    );
    // The attackers' pages are in the pool before the victim asks.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const started = Date.now();
    const read = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(victim),
      payload: link(`${pagesUrl}/article`),
    });
    const took = Date.now() - started;
    console.log(`victim link read in ${took} ms`);
    // Before: a 429 "server is busy" after 20 s while the attackers' pages held both threads.
    expect(read.statusCode, read.body).toBe(200);
    expect(took).toBeLessThan(19_000);
    const statuses = await Promise.all(heavy);
    // Refused as too complex (400), or read: never one account's pages holding every thread.
    expect(statuses.every((status) => [200, 400, 429].includes(status))).toBe(true);
  }, 120_000);
});
