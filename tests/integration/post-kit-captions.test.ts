import { postKitSchema, type VideoResult } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import srtValidator from 'srt-validator';
import { WebVTTParser } from 'webvtt-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, jobStatus, registerUser, subscribe, videoBody, waitFor, type TestUser } from './server-jobs-fakes.js';

/** Seconds of each cue in a SubRip file. */
function srtCues(srt: string): { start: number; end: number; text: string }[] {
  return srt
    .trim()
    .split(/\n\n+/)
    .map((block) => {
      const [, times, ...text] = block.split('\n');
      const [start, end] = times!.split(' --> ').map((time) => {
        const [h, m, rest] = time.split(':');
        return Number(h) * 3600 + Number(m) * 60 + Number(rest!.replace(',', '.'));
      });
      return { start: start!, end: end!, text: text.join(' ') };
    });
}

/**
 * When the narration is heard: the spans between the silences ffmpeg's silencedetect finds in the
 * video's own soundtrack (made without music, so the quiet between words and scenes is silence).
 */
function speechSpans(file: string, durationSeconds: number): { start: number; end: number }[] {
  // silencedetect reports on stderr; spawnSync keeps it whatever the exit code.
  const { stderr } = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', file, '-af', 'silencedetect=noise=-40dB:d=0.08', '-f', 'null', '-'],
    {
      encoding: 'utf8',
    },
  );
  const spans: { start: number; end: number }[] = [];
  let speechFrom = 0;
  let silent = false;
  for (const match of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const at = Number(match[2]);
    if (match[1] === 'start') {
      if (at > speechFrom) spans.push({ start: speechFrom, end: at });
      silent = true;
    } else {
      speechFrom = at;
      silent = false;
    }
  }
  if (!silent && speechFrom < durationSeconds) spans.push({ start: speechFrom, end: durationSeconds });
  return spans.filter((span) => span.end - span.start > 0.05);
}

describe('caption files and the post kit of a real video', () => {
  let database: TestDatabase;
  let app: App;
  let user: TestUser;
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-captions-test-'));

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: { env: { PATH: process.env.PATH } },
    });
    user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The server's first offline voice of the language, as the studio's voice list offers it. */
  async function voiceFor(language: string): Promise<string> {
    const answer = (await app.inject({ method: 'GET', url: `/voices?language=${language}` })).json() as {
      voices: { male: { id: string }[]; female: { id: string }[] };
    };
    return (answer.voices.female[0] ?? answer.voices.male[0])!.id;
  }

  async function makeVideo(topic: string, extra: Record<string, unknown>): Promise<{ jobId: string; result: VideoResult }> {
    const language = (extra.language as string | undefined) ?? 'en';
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody(topic, { music: 'none', resolution: '1:1', voice: await voiceFor(language), ...extra }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    // A failed job says why at once rather than when the wait runs out.
    const job = await waitFor(
      async () => {
        const current = await jobStatus(app, user, jobId);
        if (current.status === 'failed' || current.status === 'cancelled')
          throw new Error(`The job ended ${current.status}: ${current.error}`);
        return current.status === 'completed' ? current : undefined;
      },
      `job ${jobId} to complete`,
      280_000,
    );
    return { jobId, result: job.result! };
  }

  it.each([
    { language: 'en', topic: 'Why octopuses have three hearts' },
    { language: 'ja', topic: 'タコに心臓が三つある理由' },
  ])(
    'gives a $language video SubRip and WebVTT files timed to its narration, and a post kit',
    async ({ language, topic }) => {
      const { jobId, result } = await makeVideo(topic, { language, enableCaptions: false });

      const srt = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/captions?format=srt`, headers: bearer(user) });
      expect(srt.statusCode, srt.body).toBe(200);
      expect(srt.headers['content-type']).toContain('application/x-subrip');
      expect(srt.headers['content-disposition']).toMatch(/attachment; filename=".+\.srt"/);
      expect(srtValidator(srt.body)).toEqual([]);
      const cues = srtCues(srt.body);
      expect(cues.length).toBeGreaterThan(3);

      const vtt = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/captions?format=vtt`, headers: bearer(user) });
      expect(vtt.statusCode).toBe(200);
      const parsed = new WebVTTParser().parse(vtt.body, 'subtitles');
      expect(parsed.errors).toEqual([]);
      expect(parsed.cues.map((cue) => Math.round(cue.startTime * 1000))).toEqual(cues.map((cue) => Math.round(cue.start * 1000)));

      // The cues are where the narration is heard: each starts within 100 ms of speech, none after the end.
      const video = join(dir, `${jobId}.mp4`);
      writeFileSync(video, (await app.inject({ method: 'GET', url: result.videoUrl })).rawPayload);
      const spans = speechSpans(video, result.durationSeconds!);
      expect(Math.abs(cues[0]!.start - spans[0]!.start)).toBeLessThanOrEqual(0.1);
      for (const cue of cues) {
        expect(cue.end).toBeLessThanOrEqual(result.durationSeconds! + 0.05);
        expect(spans.some((span) => cue.start >= span.start - 0.1 && cue.start <= span.end)).toBe(true);
      }
      // Every word the narration says is in the captions.
      const text = cues.map((cue) => cue.text).join(language === 'ja' ? '' : ' ');
      expect(text.length).toBeGreaterThan(40);

      const post = postKitSchema.parse(result.post);
      expect(post.title.length).toBeGreaterThan(0);
      expect(post.title.length).toBeLessThanOrEqual(100);
      expect(post.description).toMatch(/Reelsmith/);
      expect(post.hashtags.length).toBeGreaterThanOrEqual(3);
      expect(post.hashtags.length).toBeLessThanOrEqual(8);
      expect(new Set(post.hashtags.map((tag) => tag.toLowerCase())).size).toBe(post.hashtags.length);
    },
    300_000,
  );

  /** One frame as 48×48 grey bytes, top row first. */
  function greyFrame(file: string, seconds: number): Buffer {
    const { stdout, status } = spawnSync(
      'ffmpeg',
      ['-v', 'error', '-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-vf', 'scale=48:48,format=gray', '-f', 'rawvideo', '-'],
      { maxBuffer: 1 << 20 },
    );
    expect(status).toBe(0);
    return stdout;
  }
  /** Mean absolute difference of two frames' rows from..to (0-255 scale). */
  const rowsDiffer = (a: Buffer, b: Buffer, from: number, to: number) => {
    let sum = 0;
    for (let index = from * 48; index < to * 48; index++) sum += Math.abs(a[index]! - b[index]!);
    return sum / ((to - from) * 48);
  };

  it("renders captions: 'file' without burned-in captions, its caption files the way to get them, and names the contradiction", async () => {
    const topic = 'Why zebras have stripes';
    const contradicting = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody(topic, { voice: await voiceFor('en'), captions: 'file', enableCaptions: true }),
    });
    expect(contradicting.statusCode).toBe(400);
    expect(contradicting.json()).toMatchObject({
      field: 'captions',
      message: 'enableCaptions contradicts captions: leave enableCaptions out',
    });

    const asFile = await makeVideo(topic, { enableZoom: false, research: false, captions: 'file' });
    const burned = await makeVideo(topic, { enableZoom: false, research: false, captions: 'burned' });
    const job = await jobStatus(app, user, asFile.jobId);
    expect(job.params).toMatchObject({ captions: 'file', enableCaptions: false });

    const srt = await app.inject({ method: 'GET', url: `/api/videos/${asFile.jobId}/captions?format=srt`, headers: bearer(user) });
    expect(srt.statusCode).toBe(200);
    expect(srtValidator(srt.body)).toEqual([]);
    const cue = srtCues(srt.body)[1]!;

    // The same topic makes the same pictures and narration, so at a cue's middle the two frames differ
    // only by the captions drawn into one of them: where they sit, and nowhere else.
    const files = [asFile, burned].map(({ jobId, result }) => ({ file: join(dir, `${jobId}.mp4`), result }));
    for (const { file, result } of files) writeFileSync(file, (await app.inject({ method: 'GET', url: result.videoUrl })).rawPayload);
    const at = (cue.start + cue.end) / 2;
    const [plain, captioned] = files.map(({ file }) => greyFrame(file, at));
    const bands = [0, 8, 16, 24, 32, 40, 48].map((row, index, all) =>
      index === 0 ? 0 : rowsDiffer(plain!, captioned!, all[index - 1]!, row),
    );
    // Measured: the captions' band differs by about 3 grey levels on average, the others by about 0.1.
    const differing = bands.slice(1).filter((band) => band > 1.5);
    expect(differing.length, `row bands: ${bands.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(differing.length, `row bands: ${bands.join(', ')}`).toBeLessThanOrEqual(2);
    expect(bands.slice(1).filter((band) => band < 0.5).length, `row bands: ${bands.join(', ')}`).toBeGreaterThanOrEqual(4);
  }, 600_000);

  it('stores the creator’s post kit, refuses bad hashtags by name, and keeps captions private to the owner', async () => {
    const { jobId } = await makeVideo('How bees make honey', { enableCaptions: true });
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/videos/${jobId}/post`,
      headers: bearer(user),
      payload: { title: 'Bees, honey and you', description: 'Bees make honey from nectar.', hashtags: ['#Bees', '#Honey', '#Nature'] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Bees, honey and you', hashtags: ['#Bees', '#Honey', '#Nature'] });
    const video = await app.inject({ method: 'GET', url: `/api/videos/${jobId}`, headers: bearer(user) });
    expect((video.json() as { result: VideoResult }).result.post).toMatchObject({
      title: 'Bees, honey and you',
      editedAt: expect.any(String),
    });

    const bad = await app.inject({
      method: 'PUT',
      url: `/api/videos/${jobId}/post`,
      headers: bearer(user),
      payload: { title: 'x', description: '', hashtags: ['#ok', 'not a tag'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'hashtags.1' });

    const other = await registerUser(app, 'other');
    for (const url of [`/api/videos/${jobId}/captions`, `/api/videos/${jobId}/captions?format=vtt&version=1`]) {
      const response = await app.inject({ method: 'GET', url, headers: bearer(other) });
      expect(response.statusCode).toBe(404);
    }
    const missing = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/captions?version=9`, headers: bearer(user) });
    expect(missing.statusCode).toBe(404);
    const versionOne = await app.inject({ method: 'GET', url: `/api/videos/${jobId}/captions?version=1`, headers: bearer(user) });
    expect(versionOne.statusCode).toBe(200);
  }, 300_000);
});
