import { videoJobSchema } from '@reelsmith/contracts';
import { buildApp, CRASHED_RUNS_MESSAGES, createTestDatabase, RETRY_CRASHED, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, FakePipeline, registerUser, subscribe, videoBody, waitFor, type TestUser } from './server-jobs-fakes.js';

/**
 * A video whose runs crashed their server twice (issue 49 item 5): it is failed with a message that
 * fits what it was made from, is not offered Retry, and a retry asked for anyway is refused instead
 * of "Retrying the video from where it stopped" and failing again at once.
 */
describe('a video failed for crashing its server twice', () => {
  let database: TestDatabase;
  let app: App;
  const pipeline = new FakePipeline();

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      // Started by the test once the job stands as two crashed runs would have left it.
      jobs: { runner: pipeline.runner, providersFor: pipeline.providersFor, autoStart: false },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  /** Submits a video and marks its runs as two that ended the process mid-step; the next claim fails it. */
  async function crashedTwice(user: TestUser, body: Record<string, unknown>): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: body });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    await app.db.updateTable('video_jobs').set({ unfinished_runs: 2, current_step: 'story' }).where('id', '=', jobId).execute();
    return jobId;
  }

  const statusOf = async (user: TestUser, jobId: string) =>
    videoJobSchema.parse((await app.inject({ method: 'GET', url: `/api/videos/${jobId}/status`, headers: bearer(user) })).json());

  it('says what to try for a topic and for a pasted text, offers no Retry, and refuses one', async () => {
    const user = await registerUser(app, 'crashed');
    await subscribe(app, user.id, 'pro_plan');
    const topicJob = await crashedTwice(user, videoBody('Why octopuses have three hearts'));
    const scriptJob = await crashedTwice(
      user,
      videoBody('Bees', {
        source: { kind: 'script', text: 'Bees dance to tell each other where the flowers are. The angle points the way.' },
      }),
    );
    await app.jobQueue.start();
    const failed = await waitFor(async () => {
      const jobs = await Promise.all([statusOf(user, topicJob), statusOf(user, scriptJob)]);
      return jobs.every((job) => job.status === 'failed') ? jobs : null;
    }, 'both videos to be failed');
    // Neither ran a third time.
    expect(pipeline.runs.filter((run) => run.jobId === topicJob || run.jobId === scriptJob)).toEqual([]);

    const [topic, script] = failed;
    expect(topic).toMatchObject({ error: CRASHED_RUNS_MESSAGES.topic, retryable: false });
    expect(topic!.error).not.toMatch(/a topic/);
    expect(script).toMatchObject({ error: CRASHED_RUNS_MESSAGES.text, retryable: false });

    // The list says the same, so My Videos and Recent Videos offer no Retry.
    const list = await app.inject({ method: 'GET', url: '/api/videos', headers: bearer(user) });
    for (const job of (list.json() as { jobs: Array<{ id: string; retryable?: boolean }> }).jobs) expect(job.retryable).toBe(false);

    const retry = await app.inject({ method: 'POST', url: `/api/videos/${topicJob}/retry`, headers: bearer(user) });
    expect(retry.statusCode, retry.body).toBe(400);
    expect((retry.json() as { message: string }).message).toBe(RETRY_CRASHED);
    expect(await statusOf(user, topicJob)).toMatchObject({ status: 'failed', error: CRASHED_RUNS_MESSAGES.topic });
  });

  it('keeps Retry for a video that failed for an ordinary reason', async () => {
    const user = await registerUser(app, 'ordinary');
    await app.jobQueue.start();
    pipeline.failWith('Tides', new Error('The voice service is unavailable right now'));
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('Tides') });
    const { jobId } = response.json() as { jobId: string };
    const failed = await waitFor(async () => {
      const job = await statusOf(user, jobId);
      return job.status === 'failed' ? job : null;
    }, 'the video to fail');
    expect(failed.retryable).toBeUndefined();
    pipeline.recover('Tides');
    const retry = await app.inject({ method: 'POST', url: `/api/videos/${jobId}/retry`, headers: bearer(user) });
    expect(retry.statusCode, retry.body).toBe(200);
  });
});
