import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createReelsmithMcpServer } from './reelsmith-mcp-server.js';

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body?: string;
}

/** An API that answers each path with the given status and JSON, recording what it was asked. */
function fakeApi(routes: Record<string, { status: number; body: unknown }>) {
  const seen: Seen[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    seen.push({
      method: init?.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      headers: new Headers(init?.headers),
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const answer = routes[key] ?? { status: 404, body: { statusCode: 404, error: 'Not Found', message: `Not found: ${key}` } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetch: fetchImpl };
}

const open: Client[] = [];
async function clientFor(api: ReturnType<typeof fakeApi>, publicUrl?: string): Promise<Client> {
  const server = createReelsmithMcpServer({
    baseUrl: 'http://api.test/',
    apiKey: 'rsk_test',
    fetch: api.fetch,
    ...(publicUrl ? { publicUrl } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'unit', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client);
  return client;
}
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** The text an agent reads (callTool's result type also covers the protocol's older `toolResult` shape). */
const text = (result: object) => (result as { content: Array<{ text: string }> }).content.map((part) => part.text).join('\n');

const job = (overrides: Record<string, unknown> = {}) => ({
  id: 'job-1',
  status: 'completed',
  progress: 100,
  currentStep: null,
  stepProgress: 100,
  params: { topic: 'Tides', duration: 30, language: 'en' },
  created_at: '2026-11-27T09:00:00.000Z',
  result: {
    videoUrl: '/output/tok/tides.mp4',
    posterUrl: '/output/tok/tides.jpg',
    filename: 'tides.mp4',
    durationSeconds: 29.5,
    version: 3,
  },
  error: null,
  steps: Object.fromEntries(['setup', 'story', 'voice', 'images', 'video'].map((step) => [step, { status: 'completed', progress: 100 }])),
  ...overrides,
});

describe('research_articles', () => {
  it('asks GET /api/research/articles with the key and hands on the articles', async () => {
    const articles = [{ title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus', description: 'Soft-bodied mollusc' }];
    const api = fakeApi({ 'GET /api/research/articles': { status: 200, body: { articles } } });
    const client = await clientFor(api);
    const result = await client.callTool({ name: 'research_articles', arguments: { q: ' octopus ', language: 'en' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ articles });
    expect(text(result)).toContain('Octopus: https://en.wikipedia.org/wiki/Octopus');
    expect(api.seen[0]).toMatchObject({ method: 'GET', url: '/api/research/articles?q=octopus&language=en' });
    expect(api.seen[0]!.headers.get('x-api-key')).toBe('rsk_test');
  });

  it("hands on the research contract's match: the article a topic-only video would be told from", async () => {
    const articles = [
      { title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus', description: 'Soft-bodied mollusc' },
      { title: 'Octopus card', url: 'https://en.wikipedia.org/wiki/Octopus_card' },
    ];
    const client = await clientFor(fakeApi({ 'GET /api/research/articles': { status: 200, body: { articles, match: 'Octopus' } } }));
    const result = await client.callTool({ name: 'research_articles', arguments: { q: 'octopus' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ articles, match: 'Octopus' });
    expect(text(result).split('\n')[0]).toBe('A video of "octopus" would be told from: Octopus');
  });

  it('says the server is too old when the route answers 404', async () => {
    const client = await clientFor(fakeApi({}));
    const result = await client.callTool({ name: 'research_articles', arguments: { q: 'octopus' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('has no article research (GET /api/research/articles answered 404)');
  });

  it("passes on the route's own refusal with its field", async () => {
    const body = { statusCode: 400, error: 'Bad Request', message: 'The search is too long', field: 'q' };
    const client = await clientFor(fakeApi({ 'GET /api/research/articles': { status: 400, body } }));
    const result = await client.callTool({ name: 'research_articles', arguments: { q: 'octopus' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('q: The search is too long');
  });
});

describe('get_video_status', () => {
  it('makes links absolute from the public address and reports duration, version and step', async () => {
    const api = fakeApi({ 'GET /api/videos/job-1/status': { status: 200, body: job() } });
    const client = await clientFor(api, 'https://studio.example/');
    const result = await client.callTool({ name: 'get_video_status', arguments: { videoId: 'job-1' } });
    expect(result.structuredContent).toMatchObject({
      videoId: 'job-1',
      status: 'completed',
      step: null,
      percent: 100,
      version: 3,
      durationSeconds: 29.5,
      videoUrl: 'https://studio.example/output/tok/tides.mp4',
      posterUrl: 'https://studio.example/output/tok/tides.jpg',
    });
    expect(text(result)).toBe('Video job-1 is ready (version 3): https://studio.example/output/tok/tides.mp4, 30 s.');
  });

  it('gives no link while a re-render runs, and the same words for any missing video', async () => {
    const running = job({ status: 'processing', progress: 40, currentStep: 'voice', stepProgress: 10 });
    const client = await clientFor(fakeApi({ 'GET /api/videos/job-1/status': { status: 200, body: running } }));
    const result = await client.callTool({ name: 'get_video_status', arguments: { videoId: 'job-1' } });
    expect(result.structuredContent).toMatchObject({ status: 'processing', step: 'voice', percent: 40 });
    expect(result.structuredContent).not.toHaveProperty('videoUrl');
    const missing = await client.callTool({ name: 'get_video_status', arguments: { videoId: 'job-2' } });
    expect(text(missing)).toBe('No video with id job-2 in this account. list_videos shows the ids of your videos.');
  });

  it('refuses a wait longer than the bound, naming the argument', async () => {
    const client = await clientFor(fakeApi({}));
    const result = await client.callTool({ name: 'get_video_status', arguments: { videoId: 'job-1', waitSeconds: 600 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/waitSeconds/);
  });
});

describe('update_scene', () => {
  // The board's settings, which update_scene sends back unchanged.
  const settings = {
    title: 'Tides',
    voice: 'en-male-1',
    captionStyle: 'tiktok',
    enableCaptions: true,
    enableZoom: true,
    music: { uploadId: 'up-music', volumePercent: 20 },
  };
  const board = {
    videoId: 'job-1',
    version: 1,
    revision: 'rev-1',
    ...settings,
    scenes: [
      { id: 's1', narration: 'One', imagePrompt: 'sea', imageUrl: '/output/a.png', startSeconds: 0, durationSeconds: 5, changed: false },
      {
        id: 's2',
        narration: 'Two',
        imagePrompt: 'moon',
        imageUrl: null,
        startSeconds: 5,
        durationSeconds: 5,
        changed: false,
        imageUploadId: 'up-1',
      },
    ],
    durationSeconds: 30,
    rendersLeft: 20,
    changed: false,
  };

  it('sends the whole storyboard back with only the named scene changed', async () => {
    const api = fakeApi({
      'GET /api/videos/job-1/storyboard': { status: 200, body: board },
      'PUT /api/videos/job-1/storyboard': { status: 200, body: { ...board, changed: true } },
    });
    const client = await clientFor(api);
    const result = await client.callTool({
      name: 'update_scene',
      arguments: { videoId: 'job-1', sceneId: 's2', imagePrompt: 'full moon' },
    });
    expect(result.isError).toBeFalsy();
    const sent = JSON.parse(api.seen.find((call) => call.method === 'PUT')!.body!) as typeof board;
    expect(sent).toEqual({
      ...settings,
      // A new prompt replaces the uploaded picture; the other scene is sent as it was.
      scenes: [
        { id: 's1', narration: 'One', imagePrompt: 'sea' },
        { id: 's2', narration: 'Two', imagePrompt: 'full moon' },
      ],
    });
    expect(text(result)).toBe('Scene 2 changed. render_video makes version 2 with it.');
  });

  it('names a scene that is not there', async () => {
    const client = await clientFor(fakeApi({ 'GET /api/videos/job-1/storyboard': { status: 200, body: board } }));
    const result = await client.callTool({ name: 'update_scene', arguments: { videoId: 'job-1', scene: 3, narration: 'Three' } });
    expect(text(result)).toBe('scene: this storyboard has scenes 1 to 2.');
    const nothing = await client.callTool({ name: 'update_scene', arguments: { videoId: 'job-1', scene: 1 } });
    expect(text(nothing)).toContain('Give the scene something to change');
  });
});

describe('cancel_video', () => {
  it('never deletes a finished video', async () => {
    const api = fakeApi({ 'GET /api/videos/job-1/status': { status: 200, body: job() } });
    const client = await clientFor(api);
    const result = await client.callTool({ name: 'cancel_video', arguments: { videoId: 'job-1' } });
    expect(text(result)).toBe('Video job-1 is completed, so there is nothing to cancel. delete_video deletes it.');
    expect(api.seen.some((call) => call.method === 'DELETE')).toBe(false);
  });
});
