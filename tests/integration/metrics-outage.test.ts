import { parseEnv } from '@reelsmith/server';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScrape } from '../../packages/server/src/operations/prometheus-test-text.js';
import { TcpCutProxy } from './tcp-cut-proxy.js';

/**
 * GET /metrics is what an operator looks at during an outage: with PostgreSQL cut (a TCP proxy the
 * test closes, as the /ready test does) it still answers 200 with the process's own metrics, the
 * database's gauges left out and reelsmith_database_gauges_up at 0, and they come back with it.
 */
describe('GET /metrics while the database is down', () => {
  let database: TestDatabase;
  let app: App;
  let proxy: TcpCutProxy;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const target = new URL(database.env.DATABASE_URL!);
    proxy = new TcpCutProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    app = await buildApp(database.config({ DATABASE_URL: proxy.rewrite(database.env.DATABASE_URL!) }), {
      voices: { autoGenerateOfflineSamples: false },
    });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await app?.close();
    await proxy?.cut();
    await database?.cleanup();
  });

  const scrape = async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    return { status: response.statusCode, scrape: readScrape(response.body) };
  };

  it('answers 200 with the process metrics, without the database gauges, and has them again when it returns', async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.scrape.value('reelsmith_database_gauges_up')).toBe(1);
    expect(before.scrape.value('reelsmith_queue_depth')).toBe(0);

    await proxy.cut();
    // Past the gauges' cache, so this scrape asks the database.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const down = await scrape();
    expect(down.status).toBe(200);
    expect(down.scrape.typeOf('reelsmith_process_resident_memory_bytes')).toBe('GAUGE');
    expect(down.scrape.value('reelsmith_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(down.scrape.value('reelsmith_job_duration_seconds_count', { outcome: 'completed' })).toBe(0);
    expect(down.scrape.value('reelsmith_database_gauges_up')).toBe(0);
    expect(down.scrape.value('reelsmith_queue_depth')).toBeUndefined();
    expect(down.scrape.value('reelsmith_jobs', { state: 'queued' })).toBeUndefined();

    await proxy.restore();
    for (let tries = 0; ; tries += 1) {
      const back = await scrape();
      if (back.scrape.value('reelsmith_database_gauges_up') === 1) {
        expect(back.scrape.value('reelsmith_queue_depth')).toBe(0);
        break;
      }
      if (tries > 100) throw new Error('the database gauges did not come back');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);
});

describe('GET /metrics in production', () => {
  let database: TestDatabase;
  let app: App;
  let metricsPort = 0;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    metricsPort = 19_700 + Math.floor(Math.random() * 200);
    app = await buildApp(database.config({ NODE_ENV: 'production', PAYMENTS_TEST_CHECKOUT: 'true', METRICS_PORT: String(metricsPort) }), {
      voices: { autoGenerateOfflineSamples: false },
    });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('is not served on the public port without METRICS_TOKEN, and is on METRICS_PORT', async () => {
    const publicPort = await app.inject({ method: 'GET', url: '/metrics' });
    expect(publicPort.statusCode).toBe(404);
    expect(publicPort.json().message).toContain('METRICS_PORT');
    const internal = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(internal.status).toBe(200);
    expect(readScrape(await internal.text()).value('reelsmith_database_gauges_up')).toBe(1);
  });

  it('never echoes a too-short METRICS_TOKEN in the start-up error', () => {
    expect(() => parseEnv({ METRICS_TOKEN: 'hunter2-secret' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    try {
      parseEnv({ METRICS_TOKEN: 'hunter2-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});
