import {
  STORYBOARD_CONFLICT_MESSAGE,
  STORYBOARD_WRITES_PER_WINDOW,
  storyboardConflictSchema,
  storyboardSchema,
  type Storyboard,
} from '@reelsmith/contracts';
import { resolveFfmpegBinaries, runGeneration } from '@reelsmith/pipeline';
import { buildApp, createTestDatabase, TEST_DIALECTS, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, subscribe, videoBody, waitForStatus, type TestUser } from './server-jobs-fakes.js';
import { fakeStoryboardProviders, quickAssemble, type Counts } from './storyboard-fakes.js';

const binaries = resolveFfmpegBinaries();

/**
 * Two tabs editing one storyboard, through real HTTP (fetch against a listening server): a write
 * that names an older version with If-Match is refused with a 412 carrying the current storyboard,
 * so neither tab silently overwrites the other, and a client looping on PUT is stopped per video.
 */
describe.each(TEST_DIALECTS)('conditional storyboard writes on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  let base: string;
  let user: TestUser;
  /** Finished videos of `user`, one per test, made up front (the queue renders them one after another). */
  let videos: string[];
  const counts: Counts = { voiced: [], painted: [] };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: {
        runner: (run) => runGeneration(run, { binaries, assemble: quickAssemble }),
        providersFor: () => fakeStoryboardProviders(counts),
      },
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
    const queued = await Promise.all(
      ['Why tides turn', 'How bees dance', 'Why owls hoot', 'Why the sky is blue', 'Why the sea is salty'].map(queue),
    );
    // A bound, not a speed check: a loaded 2-core machine renders five fake videos slowly.
    for (const jobId of queued) await waitForStatus(app, user, jobId, 'completed', 120_000);
    videos = queued;
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function queue(topic: string): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody(topic) });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { jobId: string }).jobId;
  }

  /** One browser tab: it reads the storyboard and remembers the ETag it was given. */
  async function openTab(videoId: string): Promise<{ board: Storyboard; etag: string }> {
    const response = await fetch(`${base}/api/videos/${videoId}/storyboard`, { headers: bearer(user) });
    expect(response.status).toBe(200);
    const board = storyboardSchema.parse(await response.json());
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toBe(`"${board.revision}"`);
    return { board, etag };
  }

  const withNarration = (board: Storyboard, scene: number, narration: string) => ({
    title: board.title,
    voice: board.voice,
    captionStyle: board.captionStyle,
    enableCaptions: board.enableCaptions,
    enableZoom: board.enableZoom,
    scenes: board.scenes.map((each, index) => ({
      id: each.id,
      narration: index === scene ? narration : each.narration,
      imagePrompt: each.imagePrompt,
    })),
  });

  const put = (videoId: string, body: unknown, ifMatch?: string) =>
    fetch(`${base}/api/videos/${videoId}/storyboard`, {
      method: 'PUT',
      headers: { ...bearer(user), 'content-type': 'application/json', ...(ifMatch !== undefined ? { 'if-match': ifMatch } : {}) },
      body: JSON.stringify(body),
    });

  it("refuses the second tab's stale write with a 412 carrying the first tab's version, then takes it on the current ETag", async () => {
    const videoId = videos[0]!;
    const first = await openTab(videoId);
    const second = await openTab(videoId);
    expect(second.etag).toBe(first.etag);

    const saved = await put(videoId, withNarration(first.board, 0, 'Tab one rewrote the opening'), first.etag);
    expect(saved.status).toBe(200);
    const savedBoard = storyboardSchema.parse(await saved.json());
    expect(saved.headers.get('etag')).toBe(`"${savedBoard.revision}"`);
    expect(savedBoard.revision).not.toBe(first.board.revision);

    const stale = await put(videoId, withNarration(second.board, 1, 'Tab two rewrote the middle'), second.etag);
    expect(stale.status).toBe(412);
    const conflict = storyboardConflictSchema.parse(await stale.json());
    expect(conflict.message).toBe(STORYBOARD_CONFLICT_MESSAGE);
    expect(conflict.storyboard.revision).toBe(savedBoard.revision);
    expect(stale.headers.get('etag')).toBe(`"${savedBoard.revision}"`);
    expect(conflict.storyboard.scenes.map((scene) => scene.narration).slice(0, 2)).toEqual([
      'Tab one rewrote the opening',
      second.board.scenes[1]!.narration,
    ]);

    // Nothing of tab two was stored.
    const after = await openTab(videoId);
    expect(after.board.scenes[0]!.narration).toBe('Tab one rewrote the opening');
    expect(after.board.scenes[1]!.narration).toBe(second.board.scenes[1]!.narration);

    // "Keep yours": tab two sends its version again, naming the version it has now seen.
    const kept = await put(videoId, withNarration(second.board, 1, 'Tab two rewrote the middle'), `"${conflict.storyboard.revision}"`);
    expect(kept.status).toBe(200);
    const keptBoard = storyboardSchema.parse(await kept.json());
    expect(keptBoard.scenes[1]!.narration).toBe('Tab two rewrote the middle');
    expect(keptBoard.scenes[0]!.narration).toBe(second.board.scenes[0]!.narration);
  });

  it('lets exactly one of two writes made at once from the same version through', async () => {
    const videoId = videos[1]!;
    const { board, etag } = await openTab(videoId);
    const answers = await Promise.all(
      ['Left tab', 'Right tab', 'Third tab', 'Fourth tab'].map((text) => put(videoId, withNarration(board, 0, text), etag)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = storyboardSchema.parse(await answers.find((answer) => answer.status === 200)!.json());
    expect((await openTab(videoId)).board.scenes[0]!.narration).toBe(winner.scenes[0]!.narration);
  });

  it('still takes a write without If-Match (API clients that never read the ETag), and If-Match: * while a storyboard exists', async () => {
    const videoId = videos[2]!;
    const { board } = await openTab(videoId);
    expect((await put(videoId, withNarration(board, 0, 'No condition'))).status).toBe(200);
    expect((await put(videoId, withNarration(board, 0, 'Any version'), '*')).status).toBe(200);
    expect((await put(videoId, withNarration(board, 0, 'A weak tag'), `W/"${board.revision}"`)).status).toBe(412);
    expect((await openTab(videoId)).board.scenes[0]!.narration).toBe('Any version');
  });

  it("stops a client looping on PUT for one video with a 429 that stores nothing, and leaves the account's other videos alone", async () => {
    const [looped, other] = [videos[3]!, videos[4]!];
    const { board } = await openTab(looped);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < STORYBOARD_WRITES_PER_WINDOW + 10; attempt++) {
      const answer = await put(looped, withNarration(board, 0, `Write number ${attempt}`));
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await answer.json()) as { message: string }).message).toContain('Wait a few seconds');
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(STORYBOARD_WRITES_PER_WINDOW);
    expect(statuses.slice(STORYBOARD_WRITES_PER_WINDOW).every((status) => status === 429)).toBe(true);
    expect((await openTab(looped)).board.scenes[0]!.narration).toBe(`Write number ${STORYBOARD_WRITES_PER_WINDOW - 1}`);

    const otherBoard = (await openTab(other)).board;
    expect((await put(other, withNarration(otherBoard, 0, 'Another video'))).status).toBe(200);
  });
});
