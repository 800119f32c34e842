import { describe, expect, it } from 'vitest';
import { createClient, ReelsmithApiError } from './client.js';

const job = (status: string, progress: number) => ({
  id: 'j1',
  status,
  progress,
  currentStep: 'story',
  stepProgress: 0,
  params: { topic: 'Salt', duration: 30, language: 'en' },
  created_at: '2026-01-01T00:00:00.000Z',
  result: status === 'completed' ? { videoUrl: '/output/a/video.mp4', filename: 'video.mp4' } : null,
  error: null,
  steps: Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((step) => [step, { status: 'pending', progress: 0 }])),
});

function fakeFetch(answers: Array<[number, unknown]>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const [status, body] = answers.shift() ?? [500, {}];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('createClient', () => {
  it('downloads a caption file as text and saves the post kit', async () => {
    const srt = '1\n00:00:00,000 --> 00:00:01,200\nSalt\n';
    const calls: string[] = [];
    const fetch = (async (url: string) => {
      calls.push(url);
      return url.includes('/captions')
        ? new Response(srt, { status: 200, headers: { 'content-type': 'application/x-subrip; charset=utf-8' } })
        : new Response(JSON.stringify({ title: 'Salt', description: 'Why the sea is salty.', hashtags: ['#Salt'] }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
    }) as unknown as typeof globalThis.fetch;
    const client = createClient({ baseUrl: 'https://reelsmith.example', apiKey: 'rsk_x', fetch });
    expect(await client.captions('j1', { format: 'srt', version: 2 })).toBe(srt);
    expect(calls[0]).toBe('https://reelsmith.example/api/videos/j1/captions?format=srt&version=2');
    const saved = await client.updatePost('j1', { title: 'Salt', description: 'Why the sea is salty.', hashtags: ['#Salt'] });
    expect(saved.hashtags).toEqual(['#Salt']);
  });

  it('sends the API key and the contract path, and parses the response with the contract', async () => {
    const { calls, fetch } = fakeFetch([[200, { jobId: 'j1', status: 'queued', message: 'Video generation started' }]]);
    const client = createClient({ baseUrl: 'https://reelsmith.example/', apiKey: 'rsk_x', fetch });
    const started = await client.generate({ topic: 'Salt', style: 'educational', language: 'en', duration: 30, voice: 'v1' });
    expect(started.jobId).toBe('j1');
    expect(calls[0]!.url).toBe('https://reelsmith.example/api/videos/generate');
    expect(calls[0]!.init.method).toBe('POST');
    expect((calls[0]!.init.headers as Record<string, string>)['x-api-key']).toBe('rsk_x');
  });

  it('sends a source (no topic needed) and reads the source credit of the video', async () => {
    const credited = {
      ...job('completed', 100),
      params: { topic: 'Bees', duration: 30, language: 'en', source: { kind: 'url', title: 'Bees', url: 'https://news.example/bees' } },
    };
    const { calls, fetch } = fakeFetch([
      [200, { jobId: 'j1', status: 'queued', message: 'Video generation started' }],
      [200, credited],
    ]);
    const client = createClient({ baseUrl: 'https://reelsmith.example', apiKey: 'rsk_x', fetch });
    await client.generate({
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: 'v1',
      source: { kind: 'url', url: 'https://news.example/bees' },
    });
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({ source: { kind: 'url', url: 'https://news.example/bees' } });
    expect(JSON.parse(String(calls[0]!.init.body)).topic).toBeUndefined();
    const finished = await client.waitFor('j1', { intervalMs: 1 });
    expect(finished.params.source).toEqual({ kind: 'url', title: 'Bees', url: 'https://news.example/bees' });
  });

  it('throws the server message and field on an error', async () => {
    const { fetch } = fakeFetch([[400, { statusCode: 400, error: 'Bad Request', message: 'Topic is required', field: 'topic' }]]);
    const client = createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch });
    await expect(client.list()).rejects.toMatchObject({ status: 400, message: 'Topic is required', field: 'topic' });
    await expect(
      createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch: fakeFetch([[200, { nope: 1 }]]).fetch }).list(),
    ).rejects.toThrow();
  });

  it('waitFor polls the status until the job is no longer active', async () => {
    const { calls, fetch } = fakeFetch([
      [200, job('queued', 1)],
      [200, job('processing', 40)],
      [200, job('completed', 100)],
    ]);
    const seen: number[] = [];
    const done = await createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch }).waitFor('j1', {
      intervalMs: 1,
      onProgress: (j) => seen.push(j.progress),
    });
    expect(done.status).toBe('completed');
    expect(seen).toEqual([1, 40, 100]);
    expect(calls.map((c) => c.url)).toEqual(Array(3).fill('https://r.example/api/videos/j1/status'));
  });

  it('waitFor gives up after its timeout', async () => {
    const { fetch } = fakeFetch(Array.from({ length: 10 }, () => [200, job('processing', 10)] as [number, unknown]));
    await expect(
      createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch }).waitFor('j1', { intervalMs: 5, timeoutMs: 12 }),
    ).rejects.toBeInstanceOf(ReelsmithApiError);
  });

  describe('batches', () => {
    const counts = { total: 2, queued: 2, processing: 0, completed: 0, failed: 0, cancelled: 0 };
    const detail = {
      id: 'b1',
      name: 'Week',
      status: 'queued',
      counts,
      percent: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      completedAt: null,
      rows: [
        { index: 0, jobId: 'j1', topic: 'Salt', status: 'queued', percent: 0, error: null },
        { index: 1, jobId: 'j2', topic: 'Tea', status: 'queued', percent: 0, error: null },
      ],
    };

    it('creates a batch from rows, lists, reads and cancels it on the contract paths', async () => {
      const { calls, fetch } = fakeFetch([
        [202, detail],
        [200, { batches: [{ ...detail, rows: undefined }] }],
        [200, detail],
        [200, { cancelled: 2, batch: { ...detail, status: 'cancelled' } }],
      ]);
      const client = createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch });
      const created = await client.batches.create({
        name: 'Week',
        defaults: { style: 'educational', voice: 'v1' },
        rows: [{ topic: 'Salt' }, { topic: 'Tea', language: 'hi' }],
      });
      expect(created.rows.map((row) => row.jobId)).toEqual(['j1', 'j2']);
      expect(calls[0]!.url).toBe('https://r.example/api/batches');
      expect(JSON.parse(calls[0]!.init.body as string)).toMatchObject({ rows: [{ topic: 'Salt' }, { topic: 'Tea', language: 'hi' }] });
      expect((await client.batches.list({ limit: 5 })).batches[0]!.id).toBe('b1');
      expect(calls[1]!.url).toBe('https://r.example/api/batches?limit=5');
      expect((await client.batches.get('b1')).counts.total).toBe(2);
      expect(calls[2]!.url).toBe('https://r.example/api/batches/b1');
      const cancelled = await client.batches.cancel('b1');
      expect(cancelled).toMatchObject({ cancelled: 2, batch: { status: 'cancelled' } });
      expect([calls[3]!.url, calls[3]!.init.method]).toEqual(['https://r.example/api/batches/b1/cancel', 'POST']);
    });

    it('sends a CSV as the multipart field file, with the name and defaults beside it', async () => {
      const { calls, fetch } = fakeFetch([[202, detail]]);
      const client = createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch });
      await client.batches.create({ csv: 'topic\nSalt\nTea\n', name: 'Week', defaults: { voice: 'v1' } });
      const form = calls[0]!.init.body as FormData;
      expect(form).toBeInstanceOf(FormData);
      expect(await (form.get('file') as Blob).text()).toBe('topic\nSalt\nTea\n');
      expect(form.get('name')).toBe('Week');
      expect(JSON.parse(form.get('defaults') as string)).toEqual({ voice: 'v1' });
      expect((calls[0]!.init.headers as Record<string, string>)['content-type']).toBeUndefined();
    });

    it("gives a refused batch's invalid rows and plan counts on the error", async () => {
      const invalidRows = [{ index: 2, errors: [{ field: 'duration', message: 'Duration must be one of 30, 60, 90 seconds' }] }];
      const { fetch } = fakeFetch([
        [400, { statusCode: 400, error: 'Bad Request', message: '1 row is invalid', field: 'rows', invalidRows }],
        [400, { statusCode: 400, error: 'Bad Request', message: 'needs 12', field: 'rows', needed: 12, remaining: 7 }],
      ]);
      const client = createClient({ baseUrl: 'https://r.example', apiKey: 'k', fetch });
      const invalid = (await client.batches.create({ rows: [{ topic: 'a' }] }).catch((error: unknown) => error)) as ReelsmithApiError;
      expect(invalid.batch?.invalidRows).toEqual(invalidRows);
      const beyond = (await client.batches.create({ rows: [{ topic: 'a' }] }).catch((error: unknown) => error)) as ReelsmithApiError;
      expect(beyond).toMatchObject({ status: 400, field: 'rows', batch: { needed: 12, remaining: 7 } });
    });
  });
});
