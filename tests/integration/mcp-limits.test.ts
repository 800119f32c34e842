import { MCP_CONCURRENT_REQUESTS, MCP_LIMIT_MESSAGES, MCP_MAX_MESSAGES_PER_REQUEST, MCP_WAITING_CALLS } from '@reelsmith/server/testing';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, subscribe, videoBody, waitForStatus, type TestUser } from './server-jobs-fakes.js';

/**
 * /mcp never lets one account slow the server: a POST of 100 waiting get_video_status calls is
 * refused before anything runs, an account has a few requests under way and a few waiting calls at
 * once, and a waiting call is served from the job events (no read a second), so another user's
 * request stays within twice its control time.
 */
describe('MCP limits', () => {
  const pipeline = new FakePipeline();
  let database: TestDatabase;
  let app: App;
  let baseUrl: string;
  let agent: TestUser;
  let victim: TestUser;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    agent = await registerUser(app, 'mcp-agent');
    victim = await registerUser(app, 'mcp-victim');
    await subscribe(app, agent.id, 'pro_plan');
    await subscribe(app, victim.id, 'pro_plan');
    for (let index = 0; index < 5; index++) {
      const made = await app.inject({
        method: 'POST',
        url: '/api/videos/generate',
        headers: bearer(victim),
        payload: videoBody(`Victim ${index}`),
      });
      expect(made.statusCode, made.body).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const statusCalls = (videoId: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      jsonrpc: '2.0',
      id: index + 1,
      method: 'tools/call',
      params: { name: 'get_video_status', arguments: { videoId, waitSeconds: 50 } },
    }));

  async function postMcp(body: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }

  /** The median time of the victim's video list, `count` requests one after another. */
  async function victimMedianMs(count = 15): Promise<number> {
    const times: number[] = [];
    for (let index = 0; index < count; index++) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/videos`, { headers: bearer(victim) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  }

  it("refuses 5 requests of 100 waiting calls while another user's requests stay within 2x their control", async () => {
    const gate = pipeline.blockAt('An active video', 'images');
    const made = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(agent),
      payload: videoBody('An active video'),
    });
    const videoId = (made.json() as { jobId: string }).jobId;
    await gate.reached;
    await victimMedianMs(5);
    const control = await victimMedianMs();

    const attacks = Array.from({ length: 5 }, () => postMcp(statusCalls(videoId, 100)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await victimMedianMs();
    const answers = await Promise.all(attacks);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(MCP_LIMIT_MESSAGES.batch);
    }
    // Before: 500 calls read the video once a second each, and the victim's median went 10-20x up.
    expect(during).toBeLessThan(control * 2 + 25);

    // Within the batch limit: a few requests under way at once, the rest refused; a few calls wait.
    const allowed = Array.from({ length: MCP_CONCURRENT_REQUESTS + 1 }, () => postMcp(statusCalls(videoId, MCP_MAX_MESSAGES_PER_REQUEST)));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const duringWaits = await victimMedianMs();
    gate.release();
    await waitForStatus(app, agent, videoId, 'completed');
    const released = Date.now();
    const settled = await Promise.all(allowed);
    // The waiting calls heard the completion from the job events, not from their next poll.
    expect(Date.now() - released).toBeLessThan(3_000);
    // A request past the account's requests under way is a 429; the others are answered.
    expect(settled.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    const statuses = settled
      .filter((answer) => answer.status === 200)
      .flatMap((answer) => [...answer.text.matchAll(/"status":"(\w+)"/g)].map((match) => match[1]));
    expect(statuses.length).toBeGreaterThanOrEqual(MCP_MAX_MESSAGES_PER_REQUEST);
    // At most the account's budget of calls waited and saw it complete; the others answered at once.
    const completed = statuses.filter((status) => status === 'completed').length;
    expect(completed).toBeGreaterThanOrEqual(1);
    expect(completed).toBeLessThanOrEqual(MCP_WAITING_CALLS);
    expect(duringWaits).toBeLessThan(control * 2 + 25);
  }, 120_000);
});
