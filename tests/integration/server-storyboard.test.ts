import {
  applyCompleted,
  applyFailed,
  applyProgress,
  jobTransition,
  MAX_RERENDERS,
  renderStatsSchema,
  storyboardSchema,
  videoJobSchema,
  videoVersionsResponseSchema,
  type RelayedJobEvent,
  type Storyboard,
  type VideoJob,
} from '@reelsmith/contracts';
import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import { runGeneration } from '@reelsmith/pipeline';
import { buildApp, type App } from '@reelsmith/server/testing';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '@reelsmith/server/testing';
import { removeUnusedUploads, UPLOAD_RETENTION_MS, UPLOADS_BUSY_MESSAGE, UploadFiles } from '@reelsmith/server/testing';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, registerUser, subscribe, videoBody, waitFor, waitForStatus, type TestUser } from './server-jobs-fakes.js';
import { fakeStoryboardProviders as fakeProviders, quickAssemble, type Counts } from './storyboard-fakes.js';

const binaries = resolveFfmpegBinaries();
const media = mkdtempSync(join(tmpdir(), 'reelsmith-storyboard-media-'));

function ffmpeg(...args: string[]): void {
  execFileSync(binaries.ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** The files the upload check must tell apart. */
const files = (() => {
  const red = join(media, 'red.png');
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=320x568', '-frames:v', '1', red);
  const big = join(media, 'big.png');
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=8000x5000', '-frames:v', '1', big);
  const tone = join(media, 'tone.mp3');
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=220:duration=3', '-c:a', 'libmp3lame', tone);
  // A server-local file, and an HLS playlist that names it, uploaded as a picture.
  const secret = join(media, 'secret.mp4');
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=320x240', '-frames:v', '1', '-c:v', 'mjpeg', secret);
  // Ten minutes of silence at 8 kb/s: under 1 MB, minutes of decoding.
  const long = join(media, 'long.mp3');
  ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '600', '-c:a', 'libmp3lame', '-b:a', '8k', long);
  const minute = join(media, 'minute.mp3');
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=330:duration=65', '-c:a', 'libmp3lame', '-b:a', '32k', minute);
  const png = readFileSync(red);
  return {
    hlsPlaylist: Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${secret}\n#EXT-X-ENDLIST\n`),
    tenMinuteMp3: readFileSync(long),
    sixtyFiveSecondMp3: readFileSync(minute),
    png,
    truncatedPng: png.subarray(0, Math.floor(png.length / 2)),
    textAsPng: Buffer.from('these are not the pixels you are looking for\n'),
    empty: Buffer.alloc(0),
    fortyMegapixels: readFileSync(big),
    mp3: readFileSync(tone),
  };
})();

function multipart(file: Buffer, fileName: string, contentType: string, field = 'file') {
  const boundary = `----reelsmith${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(TEST_DIALECTS)('storyboards on %s', (dialect) => {
  let database: TestDatabase;
  let app: App;
  const counts: Counts = { voiced: [], painted: [] };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(
      database.config({ RATE_LIMIT_AUTH_MAX: '1000', WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://studio.example' }),
      {
        voices: { autoGenerateOfflineSamples: false },
        jobs: {
          runner: (run) => runGeneration(run, { binaries, assemble: quickAssemble }),
          providersFor: () => fakeProviders(counts),
          webhooks: { retryDelaysMs: [200], pollIntervalMs: 100 },
        },
      },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  async function upload(user: TestUser, file: Buffer, name: string, type: string) {
    const form = multipart(file, name, type);
    return app.inject({ method: 'POST', url: '/api/uploads', headers: { ...bearer(user), ...form.headers }, payload: form.payload });
  }

  async function finishedVideo(user: TestUser, topic = 'Why octopuses have three hearts'): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody(topic) });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    await waitForStatus(app, user, jobId, 'completed', 30_000);
    return jobId;
  }

  async function storyboard(user: TestUser, videoId: string): Promise<Storyboard> {
    const response = await app.inject({ method: 'GET', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user) });
    expect(response.statusCode, response.body).toBe(200);
    return storyboardSchema.parse(response.json());
  }

  const editOf = (board: Storyboard) => ({
    title: board.title,
    voice: board.voice,
    captionStyle: board.captionStyle,
    enableCaptions: board.enableCaptions,
    enableZoom: board.enableZoom,
    scenes: board.scenes.map((scene) => ({
      id: scene.id,
      narration: scene.narration,
      imagePrompt: scene.imagePrompt,
      ...(scene.imageUploadId ? { imageUploadId: scene.imageUploadId } : {}),
    })),
  });

  describe('uploads are checked by decoding them', () => {
    it('takes a PNG (whatever its name says) and re-encodes it', async () => {
      const user = await registerUser(app);
      const response = await upload(user, files.png, 'holiday.gif', 'application/octet-stream');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ kind: 'image', width: 320, height: 568 });
    });

    it('takes an MP3 as music with its duration', async () => {
      const user = await registerUser(app);
      const response = await upload(user, files.mp3, 'song.mp3', 'audio/mpeg');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as { kind: string; durationSeconds: number };
      expect(body.kind).toBe('audio');
      expect(body.durationSeconds).toBeGreaterThan(2.5);
    });

    it.each([
      ['a text file renamed .png', files.textAsPng, /not a picture or sound we can read/],
      ['a 0-byte file', files.empty, /empty \(0 bytes\)/],
      ['a 40 MP image', files.fortyMegapixels, /40\.0 megapixels; at most 24 megapixels/],
      ['a truncated PNG', files.truncatedPng, /damaged or cut short/],
      ['an HLS playlist naming a server-local file', files.hlsPlaylist, /^Playlist \(M3U\/HLS\) files are not accepted/],
      ['a 10-minute sound, before decoding it', files.tenMinuteMp3, /The sound is 600 s long; at most 120 s is accepted/],
    ])('refuses %s with a clear 400 and stores nothing', async (_, file, message) => {
      const user = await registerUser(app);
      const response = await upload(user, file, 'picture.png', 'image/png');
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ field: 'file', message: expect.stringMatching(message) });
      const stored = await app.db.selectFrom('uploads').select('id').where('user_id', '=', user.id).execute();
      expect(stored).toEqual([]);
    });

    it('refuses a long sound from its probed duration, without decoding it', async () => {
      const user = await registerUser(app);
      const started = Date.now();
      const response = await upload(user, files.tenMinuteMp3, 'song.mp3', 'audio/mpeg');
      expect(response.statusCode).toBe(400);
      // Decoding ten minutes would take many seconds; the probe alone takes a fraction of one.
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it("decodes one upload of a user at a time, lets 3 more wait and refuses the rest with a 429, while another user's upload goes ahead", async () => {
      const user = await registerUser(app);
      const other = await registerUser(app);
      const finished: number[] = [];
      const burst = Array.from({ length: 6 }, (_, i) =>
        upload(user, files.mp3, `song-${i}.mp3`, 'audio/mpeg').then((answer) => (finished.push(Date.now()), answer)),
      );
      const theirs = await upload(other, files.png, 'mine.png', 'image/png');
      const theirsDone = Date.now();
      const answers = await Promise.all(burst);
      expect(theirs.statusCode).toBe(200);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 200, 429, 429]);
      expect(answers.find((answer) => answer.statusCode === 429)!.json().message).toBe(UPLOADS_BUSY_MESSAGE);
      // The other user's picture took a free core: it did not wait for the burst's four decodes, one after another.
      expect(theirsDone).toBeLessThan(Math.max(...finished));
    });

    it('counts upload bytes in the storage figures', async () => {
      const user = await registerUser(app);
      const stats = async () =>
        (await app.inject({ method: 'GET', url: '/api/storage/stats', headers: bearer(user) })).json() as {
          totalBytes: number;
          uploadBytes: number;
        };
      expect(await stats()).toMatchObject({ totalBytes: 0, uploadBytes: 0 });
      expect((await upload(user, files.png, 'a.png', 'image/png')).statusCode).toBe(200);
      expect((await upload(user, files.mp3, 'a.mp3', 'audio/mpeg')).statusCode).toBe(200);
      const rows = await app.db.selectFrom('uploads').select('size_bytes').where('user_id', '=', user.id).execute();
      const bytes = rows.reduce((sum, row) => sum + Number(row.size_bytes), 0);
      expect(bytes).toBeGreaterThan(0);
      expect(await stats()).toMatchObject({ totalBytes: bytes, uploadBytes: bytes });
    });

    it('asks for the file field when it is missing', async () => {
      const user = await registerUser(app);
      const form = multipart(files.png, 'a.png', 'image/png', 'picture');
      const response = await app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { ...bearer(user), ...form.headers },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'file', message: 'Attach the file in the form field named "file".' });
    });
  });

  it('edits scene 2, renders v2 reusing everything else, and keeps v1', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const before = await storyboard(user, videoId);
    expect(before).toMatchObject({ version: 1, title: 'Octopus hearts', changed: false, rendersLeft: MAX_RERENDERS, durationSeconds: 30 });
    expect(before.scenes).toHaveLength(5);
    // 1 s of speech a scene, paced at the limits for 30 s: pauses of 1 s, the voice at 0.9; each cut
    // lands on a whole frame (1/30 s), so the starts are 2.11 s apart rounded to frames.
    expect(before.scenes.map((scene) => scene.startSeconds)).toEqual([0, 2.1, 4.23, 6.33, 8.43]);
    for (const scene of before.scenes) expect((await app.inject({ method: 'GET', url: scene.imageUrl! })).statusCode).toBe(200);

    const picture = (await upload(user, files.png, 'mine.png', 'image/png')).json() as { id: string };
    const edit = editOf(before);
    edit.scenes[1] = { ...edit.scenes[1]!, narration: 'The second heart rests when the octopus swims', imageUploadId: picture.id };
    const saved = await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: edit });
    expect(saved.statusCode, saved.body).toBe(200);
    const savedBoard = storyboardSchema.parse(saved.json());
    expect(savedBoard.changed).toBe(true);
    expect(savedBoard.scenes.map((scene) => scene.changed)).toEqual([false, true, false, false, false]);
    expect(savedBoard.scenes[1]).toMatchObject({ imageUrl: null, imageUploadId: picture.id, startSeconds: null });

    counts.voiced.length = 0;
    counts.painted.length = 0;
    const render = await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) });
    expect(render.statusCode, render.body).toBe(202);
    expect(render.json()).toEqual({ jobId: videoId, version: 2 });
    const job = await waitForStatus(app, user, videoId, 'completed', 30_000);
    expect(job.result?.version).toBe(2);
    expect(counts.voiced).toEqual(['The second heart rests when the octopus swims']);
    expect(counts.painted).toEqual([]);

    const video = await app.inject({ method: 'GET', url: `/api/videos/${videoId}`, headers: bearer(user) });
    expect((video.json() as { result: { version: number } }).result.version).toBe(2);
    const versions = videoVersionsResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/videos/${videoId}/versions`, headers: bearer(user) })).json(),
    ).versions;
    expect(versions.map((entry) => entry.version)).toEqual([1, 2]);
    expect(versions[0]!.videoUrl).not.toBe(versions[1]!.videoUrl);
    // Each version says what its render did: the first render and the re-render alike.
    for (const entry of versions) {
      expect(renderStatsSchema.parse(entry.renderStats)).toEqual(entry.renderStats);
      expect(entry.renderStats!.seconds).toBeGreaterThan(0);
    }
    for (const entry of versions) expect((await app.inject({ method: 'GET', url: `${entry.videoUrl}?download=1` })).statusCode).toBe(200);

    const after = await storyboard(user, videoId);
    expect(after).toMatchObject({ version: 2, changed: false, rendersLeft: MAX_RERENDERS - 1 });
    expect(after.scenes[1]!.narration).toBe('The second heart rests when the octopus swims');
    const uploaded = await app.inject({ method: 'GET', url: after.scenes[1]!.imageUrl! });
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    // A caption style change re-renders but voices and paints nothing.
    counts.voiced.length = 0;
    const captions = await app.inject({
      method: 'PUT',
      url: `/api/videos/${videoId}/storyboard`,
      headers: bearer(user),
      payload: { ...editOf(after), captionStyle: 'netflix', enableCaptions: true },
    });
    expect(captions.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) })).json()).toEqual({
      jobId: videoId,
      version: 3,
    });
    await waitFor3(videoId, user);
    expect(counts.voiced).toEqual([]);
    expect(counts.painted).toEqual([]);

    // Deleting the video removes every version's files.
    const deleted = await app.inject({ method: 'DELETE', url: `/api/videos/${videoId}`, headers: bearer(user) });
    expect(deleted.statusCode).toBe(200);
    for (const entry of versions) expect((await app.inject({ method: 'GET', url: entry.videoUrl })).statusCode).toBe(404);
  });

  async function waitFor3(videoId: string, user: TestUser): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await app.inject({ method: 'GET', url: `/api/videos/${videoId}`, headers: bearer(user) });
      const body = response.json() as { job: { status: string }; result: { version?: number } | null };
      if (body.job.status === 'completed' && body.result?.version === 3) return;
      if (Date.now() > deadline) throw new Error('v3 never finished');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("sends each render's completion to webhooks as its own event, with its version and absolute addresses", async () => {
    const received: Array<{ id: string; data: { jobId: string; version: number; videoUrl: string; posterUrl: string } }> = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const user = await registerUser(app);
      const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/webhooks',
            headers: bearer(user),
            payload: { url: hookUrl, events: ['video.completed'] },
          })
        ).statusCode,
      ).toBe(200);
      const videoId = await finishedVideo(user);
      await waitFor(async () => received.some((event) => event.data.jobId === videoId), 'the first render event');
      const before = await storyboard(user, videoId);
      expect(
        (
          await app.inject({
            method: 'PUT',
            url: `/api/videos/${videoId}/storyboard`,
            headers: bearer(user),
            payload: { ...editOf(before), captionStyle: 'netflix' },
          })
        ).statusCode,
      ).toBe(200);
      expect((await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) })).statusCode).toBe(202);
      await waitFor(async () => received.filter((event) => event.data.jobId === videoId).length >= 2, 'the re-render event', 30_000);
      const events = received.filter((event) => event.data.jobId === videoId);
      expect(events.map((event) => event.data.version)).toEqual([1, 2]);
      expect(new Set(events.map((event) => event.id)).size).toBe(2);
      for (const event of events) {
        expect(event.data.videoUrl).toMatch(/^https:\/\/studio\.example\/output\//);
        expect(event.data.posterUrl).toMatch(/^https:\/\/studio\.example\/output\//);
      }
      expect(events[0]!.data.videoUrl).not.toBe(events[1]!.data.videoUrl);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("refuses music longer than the video's length and the margin", async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const song = await upload(user, files.sixtyFiveSecondMp3, 'song.mp3', 'audio/mpeg');
    expect(song.statusCode, song.body).toBe(200);
    const edit = { ...editOf(await storyboard(user, videoId)), music: { uploadId: (song.json() as { id: string }).id, volumePercent: 30 } };
    const response = await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: edit });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      field: 'music.uploadId',
      message: expect.stringMatching(/^The sound is 65 s long; at most 60 s is accepted/),
    });
  });

  it('deletes uploads with the video that alone uses them, and unused uploads after the retention period', async () => {
    const user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
    const [first, second] = [await finishedVideo(user, 'Why owls turn their heads'), await finishedVideo(user, 'Why crows remember faces')];
    const picture = async () => ((await upload(user, files.png, 'mine.png', 'image/png')).json() as { id: string }).id;
    const [own, shared, unused] = [await picture(), await picture(), await picture()];
    const use = async (videoId: string, ids: string[]) => {
      const edit = editOf(await storyboard(user, videoId));
      ids.forEach((id, index) => (edit.scenes[index] = { ...edit.scenes[index]!, imageUploadId: id }));
      expect(
        (await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: edit })).statusCode,
      ).toBe(200);
    };
    await use(first, [own, shared]);
    await use(second, [shared]);
    const stored = async () =>
      (await app.db.selectFrom('uploads').select('id').where('user_id', '=', user.id).execute()).map((row) => row.id).sort();
    const fileOf = (id: string) => join(database.dataDir, 'uploads', user.id, `${id}.jpg`);
    expect(existsSync(fileOf(own))).toBe(true);

    expect((await app.inject({ method: 'DELETE', url: `/api/videos/${first}`, headers: bearer(user) })).statusCode).toBe(200);
    expect(await stored()).toEqual([shared, unused].sort());
    expect(existsSync(fileOf(own))).toBe(false);

    // Within the retention period nothing else goes; past it, only the upload no storyboard uses.
    expect(await removeUnusedUploads(app.db, new UploadFiles(app.storage), new Date(Date.now() - UPLOAD_RETENTION_MS))).toBe(0);
    expect(await removeUnusedUploads(app.db, new UploadFiles(app.storage), new Date(Date.now() + 1_000))).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual([shared]);
    expect(existsSync(fileOf(unused))).toBe(false);
    expect(existsSync(fileOf(shared))).toBe(true);
  });

  it('refuses a bad edit field by field and changes nothing', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const before = await storyboard(user, videoId);
    const put = (payload: unknown) =>
      app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: payload as object });

    const empty = editOf(before);
    empty.scenes[1] = { ...empty.scenes[1]!, narration: '   ' };
    expect((await put(empty)).json()).toMatchObject({
      statusCode: 400,
      field: 'scenes.1.narration',
      message: 'Scene 2: the narration is empty. Write what the narrator says, or delete the scene.',
    });

    const crowded = editOf(before);
    crowded.scenes = Array.from({ length: 13 }, (_, i) => ({ narration: `Beat ${i}`, imagePrompt: `sky ${i}` })) as typeof crowded.scenes;
    expect((await put(crowded)).json()).toMatchObject({ statusCode: 400, field: 'scenes', message: 'A video has at most 12 scenes.' });

    const wordy = editOf(before);
    wordy.scenes[0] = { ...wordy.scenes[0]!, narration: Array.from({ length: 100 }, () => 'word').join(' ') };
    expect((await put(wordy)).json()).toMatchObject({
      statusCode: 400,
      field: 'scenes',
      message: expect.stringMatching(/a 30 s video holds at most 99/),
    });

    const unknownUpload = editOf(before);
    unknownUpload.scenes[0] = { ...unknownUpload.scenes[0]!, imageUploadId: 'no-such-upload' };
    expect((await put(unknownUpload)).json()).toMatchObject({
      statusCode: 404,
      field: 'scenes.0.imageUploadId',
      message: 'That upload does not exist. Upload the file again.',
    });

    expect(await storyboard(user, videoId)).toEqual(before);
  });

  it('applies the generate request text rules to every storyboard field: control characters and lone surrogates are a 400 naming the field', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const before = await storyboard(user, videoId);
    const put = (payload: unknown) =>
      app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: payload as object });
    const cases: Array<[string, (edit: ReturnType<typeof editOf>) => void]> = [
      ['scenes.0.narration', (edit) => (edit.scenes[0]!.narration = '猫は\u0000ゴロゴロ')],
      ['scenes.0.narration', (edit) => (edit.scenes[0]!.narration = 'A purr \uD800 rumbles')],
      ['scenes.1.imagePrompt', (edit) => (edit.scenes[1]!.imagePrompt = 'A cat\u0007 asleep')],
      ['title', (edit) => (edit.title = 'Cats\u0000')],
      ['title', (edit) => (edit.title = 'Cats \uDC00 purr')],
      ['voice', (edit) => (edit.voice = 'en-male-1\u0007')],
    ];
    for (const [field, spoil] of cases) {
      const edit = editOf(before);
      spoil(edit);
      const response = await put(edit);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ field, message: expect.stringMatching(/contains (control characters|broken Unicode)/) });
    }
    // Line breaks stay allowed in the narration, and the text is stored NFC-normalised.
    const fine = editOf(before);
    fine.scenes[0]!.narration = 'Cafe\u0301 cats\npurr';
    expect((await put(fine)).statusCode).toBe(200);
    expect((await storyboard(user, videoId)).scenes[0]!.narration).toBe('Caf\u00e9 cats\npurr');
  });

  it('answers 404 to another user on every storyboard route and for their upload ids', async () => {
    const owner = await registerUser(app, 'owner');
    const stranger = await registerUser(app, 'stranger');
    const videoId = await finishedVideo(owner);
    const board = await storyboard(owner, videoId);
    for (const [method, url] of [
      ['GET', `/api/videos/${videoId}/storyboard`],
      ['POST', `/api/videos/${videoId}/render`],
      ['GET', `/api/videos/${videoId}/versions`],
    ] as const) {
      const response = await app.inject({ method, url, headers: bearer(stranger) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(stranger), payload: editOf(board) }))
        .statusCode,
    ).toBe(404);

    const theirs = (await upload(stranger, files.png, 'a.png', 'image/png')).json() as { id: string };
    const edit = editOf(board);
    edit.scenes[0] = { ...edit.scenes[0]!, imageUploadId: theirs.id };
    const response = await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(owner), payload: edit });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ field: 'scenes.0.imageUploadId' });

    // Music names an upload too: another account's sound is refused the same way.
    const theirSound = await upload(stranger, files.mp3, 'tone.mp3', 'audio/mpeg');
    expect(theirSound.statusCode, theirSound.body).toBe(200);
    const withMusic = { ...editOf(board), music: { uploadId: (theirSound.json() as { id: string }).id, volumePercent: 30 } };
    const music = await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(owner), payload: withMusic });
    expect(music.statusCode, music.body).toBe(404);
    expect(music.json()).toMatchObject({ field: 'music.uploadId', message: 'That upload does not exist. Upload the file again.' });
    expect(await storyboard(owner, videoId)).toEqual(board);
  });

  it('keeps the previous version when a re-render is cancelled or fails', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const before = await app.inject({ method: 'GET', url: `/api/videos/${videoId}`, headers: bearer(user) });
    const v1 = (before.json() as { result: { videoUrl: string } }).result;
    const board = await storyboard(user, videoId);
    const put = (narration: string) => {
      const edit = editOf(board);
      edit.scenes[0] = { ...edit.scenes[0]!, narration };
      return edit;
    };

    let reached!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    counts.hold = { text: 'Hold this line', reached, until: new Promise(() => undefined) };
    expect(
      (await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: put('Hold this line') }))
        .statusCode,
    ).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) })).statusCode).toBe(202);
    await reachedPromise;
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/videos/${videoId}`, headers: bearer(user) });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const afterCancel = (await app.inject({ method: 'GET', url: `/api/videos/${videoId}`, headers: bearer(user) })).json() as {
      job: { status: string };
      result: { videoUrl: string; version?: number };
    };
    expect(afterCancel.job.status).toBe('completed');
    expect(afterCancel.result.videoUrl).toBe(v1.videoUrl);
    expect((await storyboard(user, videoId)).version).toBe(1);
    delete counts.hold;

    counts.failOn = 'A line the voice refuses';
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/videos/${videoId}/storyboard`,
          headers: bearer(user),
          payload: put('A line the voice refuses'),
        })
      ).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) })).json()).toEqual({
      jobId: videoId,
      version: 2,
    });
    const failed = await waitForStatus(app, user, videoId, 'completed', 30_000).then(async () => {
      // The row reads completed again once the failure restored v1; wait for the error to be recorded.
      for (let i = 0; i < 200; i++) {
        const job = (await app.inject({ method: 'GET', url: `/api/videos/${videoId}/status`, headers: bearer(user) })).json() as {
          status: string;
          error: string | null;
          result: { videoUrl: string };
        };
        if (job.error) return job;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the failure was never recorded');
    });
    delete counts.failOn;
    expect(failed).toMatchObject({ status: 'completed', error: 'The voice service refused this line', result: { videoUrl: v1.videoUrl } });
    const versions = videoVersionsResponseSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/videos/${videoId}/versions`, headers: bearer(user) })).json(),
    ).versions;
    expect(versions.map((entry) => entry.version)).toEqual([1]);
    // The edit is kept, so the creator can change the line and render again.
    expect((await storyboard(user, videoId)).scenes[0]).toMatchObject({ narration: 'A line the voice refuses', changed: true });
  });

  it('announces a failed re-render exactly as it stores it: the previous version kept, with the error', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    const board = await storyboard(user, videoId);
    const heard: RelayedJobEvent[] = [];
    const listeners = {
      job_progress: (event: RelayedJobEvent['event'], userId: string) =>
        heard.push({ name: 'job_progress', event, userId } as RelayedJobEvent),
      job_completed: (event: RelayedJobEvent['event'], userId: string) =>
        heard.push({ name: 'job_completed', event, userId } as RelayedJobEvent),
      job_failed: (event: RelayedJobEvent['event'], userId: string) => heard.push({ name: 'job_failed', event, userId } as RelayedJobEvent),
    };
    for (const [name, listener] of Object.entries(listeners)) app.jobEvents.on(name as 'job_progress', listener as never);
    const status = async (): Promise<VideoJob> =>
      videoJobSchema.parse((await app.inject({ method: 'GET', url: `/api/videos/${videoId}/status`, headers: bearer(user) })).json());
    try {
      counts.failOn = 'A line the voice will not read';
      const edit = editOf(board);
      edit.scenes[0] = { ...edit.scenes[0]!, narration: 'A line the voice will not read' };
      expect(
        (await app.inject({ method: 'PUT', url: `/api/videos/${videoId}/storyboard`, headers: bearer(user), payload: edit })).statusCode,
      ).toBe(200);
      expect((await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) })).statusCode).toBe(202);
      const queued = await status();
      await waitFor(
        async () => heard.some((item) => item.name === 'job_failed' && item.event.jobId === videoId),
        'the failure to be announced',
        30_000,
      );
      const stored = await status();

      // What a client makes of the events, from the job as it was queued, is what the server stored.
      let seen: VideoJob = queued;
      for (const item of heard.filter((entry) => entry.event.jobId === videoId)) {
        if (item.name === 'job_progress') seen = applyProgress(seen, item.event);
        else if (item.name === 'job_completed') seen = applyCompleted(seen, item.event);
        else seen = applyFailed(seen, item.event);
      }
      const shape = (job: VideoJob) => ({
        status: job.status,
        error: job.error,
        result: job.result,
        progress: job.progress,
        currentStep: job.currentStep,
        steps: job.steps,
      });
      expect(stored).toMatchObject({ status: 'completed', error: 'The voice service refused this line', result: { version: 1 } });
      expect(shape(seen)).toEqual(shape(stored));
      expect(heard.filter((item) => item.name === 'job_failed')).toEqual([
        { name: 'job_failed', userId: user.id, event: { jobId: videoId, error: 'The voice service refused this line', version: 2 } },
      ]);
      expect(heard.some((item) => item.name === 'job_completed')).toBe(false);
      // Reading the stored job after the queued one tells the same story as the events: a failure.
      expect(jobTransition(queued, stored)).toMatchObject({
        kind: 'failed',
        event: { jobId: videoId, error: 'The voice service refused this line', version: 2 },
      });
    } finally {
      delete counts.failOn;
      for (const [name, listener] of Object.entries(listeners)) app.jobEvents.off(name as 'job_progress', listener as never);
    }
  });

  it('re-renders without using the allowance, up to the limit', async () => {
    const user = await registerUser(app);
    const videoId = await finishedVideo(user);
    // The free video is used: a new video is refused, a re-render of this one is not.
    expect(
      (await app.inject({ method: 'POST', url: '/api/videos/generate', headers: bearer(user), payload: videoBody('Another') })).statusCode,
    ).toBe(403);
    const render = await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) });
    expect(render.statusCode, render.body).toBe(202);
    await waitForStatus(app, user, videoId, 'completed', 30_000);
    const canGenerate = await app.inject({ method: 'GET', url: '/payments/can-generate', headers: bearer(user) });
    expect((canGenerate.json() as { canGenerate: boolean }).canGenerate).toBe(false);

    await app.db
      .updateTable('video_jobs')
      .set({ version: MAX_RERENDERS + 1 })
      .where('id', '=', videoId)
      .execute();
    const refused = await app.inject({ method: 'POST', url: `/api/videos/${videoId}/render`, headers: bearer(user) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: `A video can be rendered again at most ${MAX_RERENDERS} times. Generate a new video to keep editing.`,
    });
  });
});

afterAll(() => rmSync(media, { recursive: true, force: true }));
