import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Storyboard } from '@reelsmith/contracts';
import { MCP_KEY_REQUIRED_MESSAGE, MCP_STATELESS_MESSAGE } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callError, callOk, pollUntilDone, PUBLIC_URL, startMcpTestServer, TOOL_NAMES, type McpTestServer } from './mcp-fakes.js';
import { registerUser, subscribe, type TestUser } from './server-jobs-fakes.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

describe('the MCP server at /mcp (Streamable HTTP)', () => {
  let server: McpTestServer;
  let owner: TestUser;
  let other: TestUser;
  const clients: Client[] = [];

  /** The official SDK's client, authenticated the way remote agents are: the API key as a bearer token. */
  async function connect(user: TestUser, headers: Record<string, string> = { authorization: `Bearer ${user.apiKey}` }): Promise<Client> {
    const client = new Client({ name: 'reelsmith-test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    server = await startMcpTestServer();
    owner = await registerUser(server.app, 'mcp-owner');
    other = await registerUser(server.app, 'mcp-other');
    await subscribe(server.app, owner.id, 'pro_plan');
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.close();
  });

  it('answers 401 without a key or with a wrong one, before reading the request', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(INITIALIZE),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    expect(await anonymous.json()).toMatchObject({ statusCode: 401, message: MCP_KEY_REQUIRED_MESSAGE });
    expect((await post({ authorization: 'Bearer rsk_not-a-key' })).status).toBe(401);
    expect((await post({ 'x-api-key': 'rsk_not-a-key' })).status).toBe(401);
    // A session token is not an API key.
    expect((await post({ authorization: `Bearer ${owner.token}` })).status).toBe(401);
    // The official client fails to connect without a key.
    const client = new Client({ name: 'no-key', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))).rejects.toThrow();
  });

  it('takes the key in x-api-key too, and says it is stateless to GET and DELETE', async () => {
    const client = await connect(owner, { 'x-api-key': owner.apiKey });
    expect((await client.listTools()).tools.length).toBe(TOOL_NAMES.length);
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${owner.apiKey}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ message: MCP_STATELESS_MESSAGE });
  });

  it('lists the tools with their schemas from the contracts, the video resource template and the prompt', async () => {
    const client = await connect(owner);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.outputSchema, tool.name).toBeDefined();
    }
    const generate = tools.find((tool) => tool.name === 'generate_video')!;
    const properties = generate.inputSchema.properties as Record<string, { oneOf?: Array<{ properties: { kind: { const: string } } }> }>;
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['topic', 'style', 'language', 'duration', 'voice', 'source', 'music']));
    expect(properties.source!.oneOf!.map((kind) => kind.properties.kind.const)).toEqual(
      expect.arrayContaining(['script', 'article', 'url']),
    );
    // Only the topic (or a source) is needed: what an agent leaves out is filled in (issue 49).
    for (const optional of ['style', 'language', 'duration', 'voice']) expect(generate.inputSchema.required ?? []).not.toContain(optional);

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['reelsmith://videos/{id}']);
    const prompt = await client.getPrompt({ name: 'make_short', arguments: { about: 'why octopuses have three hearts' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('why octopuses have three hearts');
    for (const step of ['list_voices', 'generate_video', 'get_video_status', 'get_storyboard', 'update_scene', 'render_video'])
      expect(text).toContain(step);
  });

  it('generates from a topic, polls to an absolute link, edits the storyboard and renders version 2', async () => {
    const client = await connect(owner);
    const voices = await callOk<{ voices: { male: Array<{ id: string }> } }>(client, 'list_voices', { language: 'en' });
    const voice = voices.structured.voices.male[0]!.id;
    expect(voices.text).toContain(voice);

    const started = await callOk<{ jobId: string; status: string }>(client, 'generate_video', {
      topic: 'Why octopuses have three hearts',
      style: 'educational',
      language: 'en',
      duration: 30,
      voice,
    });
    const videoId = started.structured.jobId;
    expect(started.text).toContain(videoId);

    const done = await pollUntilDone(client, videoId);
    expect(done).toMatchObject({ status: 'completed', version: 1, durationSeconds: 30 });
    expect(done.videoUrl).toMatch(new RegExp(`^${PUBLIC_URL}/output/.+\\.mp4$`));
    expect(done.posterUrl).toMatch(new RegExp(`^${PUBLIC_URL}/output/`));

    const listed = await callOk<{ videos: Array<{ videoId: string; videoUrl?: string }> }>(client, 'list_videos', {});
    expect(listed.structured.videos.find((video) => video.videoId === videoId)?.videoUrl).toBe(done.videoUrl);

    const board = await callOk<Storyboard>(client, 'get_storyboard', { videoId });
    expect(board.structured.scenes.length).toBeGreaterThan(2);
    expect(board.structured.scenes[0]!.imageUrl).toMatch(new RegExp(`^${PUBLIC_URL}/`));
    expect(board.text).toContain(board.structured.scenes[1]!.narration);

    const edited = await callOk<Storyboard>(client, 'update_scene', {
      videoId,
      scene: 2,
      narration: 'The second heart beats for the gills',
    });
    expect(edited.structured.scenes[1]).toMatchObject({
      id: board.structured.scenes[1]!.id,
      narration: 'The second heart beats for the gills',
      changed: true,
    });
    expect(edited.structured.scenes[0]!.changed).toBe(false);
    const byId = await callOk<Storyboard>(client, 'update_scene', {
      videoId,
      sceneId: board.structured.scenes[2]!.id,
      imagePrompt: 'a blue octopus heart',
    });
    expect(byId.structured.scenes[2]!.imagePrompt).toBe('a blue octopus heart');
    expect(byId.structured.changed).toBe(true);

    const render = await callOk<{ jobId: string; version: number }>(client, 'render_video', { videoId });
    expect(render.structured).toEqual({ jobId: videoId, version: 2 });
    const rendered = await pollUntilDone(client, videoId);
    expect(rendered).toMatchObject({ status: 'completed', version: 2 });
    expect(rendered.videoUrl).not.toBe(done.videoUrl);
    expect(server.counts.voiced).toContain('The second heart beats for the gills');

    const after = await callOk<Storyboard>(client, 'get_storyboard', { videoId });
    expect(after.structured).toMatchObject({ version: 2, changed: false });

    // The finished video as a resource: metadata, storyboard and both versions' links.
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`reelsmith://videos/${videoId}`);
    const read = await client.readResource({ uri: `reelsmith://videos/${videoId}` });
    const document = JSON.parse((read.contents[0] as { text: string }).text) as {
      video: { videoUrl: string };
      storyboard: Storyboard;
      versions: Array<{ version: number; videoUrl: string }>;
    };
    expect(document.video.videoUrl).toBe(rendered.videoUrl);
    expect(document.storyboard.scenes[1]!.narration).toBe('The second heart beats for the gills');
    expect(document.versions.map((version) => version.version).sort()).toEqual([1, 2]);
    expect(document.versions.every((version) => version.videoUrl.startsWith(`${PUBLIC_URL}/output/`))).toBe(true);

    // Another account's video is a tool error that reveals nothing, whatever the tool.
    const stranger = await connect(other);
    const unknown = await callError(stranger, 'get_video_status', { videoId: '00000000-0000-4000-8000-000000000000' });
    for (const tool of ['get_video_status', 'get_storyboard', 'render_video', 'delete_video', 'cancel_video']) {
      const refused = await callError(stranger, tool, { videoId });
      expect(refused, tool).toBe(unknown.replace('00000000-0000-4000-8000-000000000000', videoId));
      expect(refused).not.toContain('octopus');
    }
    const refusedEdit = await callError(stranger, 'update_scene', { videoId, scene: 1, narration: 'mine now' });
    expect(refusedEdit).toBe(unknown.replace('00000000-0000-4000-8000-000000000000', videoId));
    expect((await stranger.listResources()).resources).toEqual([]);
    await expect(stranger.readResource({ uri: `reelsmith://videos/${videoId}` })).rejects.toThrow(/No video with id/);
    expect((await pollUntilDone(client, videoId)).status).toBe('completed');

    // A finished video is not cancelled (DELETE would delete it); delete_video deletes it.
    expect(await callError(client, 'cancel_video', { videoId })).toContain('nothing to cancel');
    const deleted = await callOk<{ status: string }>(client, 'delete_video', { videoId });
    expect(deleted.structured.status).toBe('deleted');
    expect(await callError(client, 'get_video_status', { videoId })).toContain('No video with id');
  });

  it("makes a video from only a topic: the options left out are the product's defaults and the language's first voice (issue 49)", async () => {
    const client = await connect(owner);
    const voices = await callOk<{ provider: string; voices: { male: Array<{ id: string }> } }>(client, 'list_voices', { language: 'en' });
    const firstVoice = voices.structured.voices.male[0]!.id;
    const started = await callOk<{ jobId: string }>(client, 'generate_video', { topic: 'Why the sea is salty' });
    expect(started.text).toContain(`voice ${firstVoice}`);
    const done = await pollUntilDone(client, started.structured.jobId);
    expect(done).toMatchObject({ status: 'completed', durationSeconds: 30 });
    const job = await server.app.inject({
      method: 'GET',
      url: `/api/videos/${started.structured.jobId}/status`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect((job.json() as { params: Record<string, unknown> }).params).toMatchObject({
      topic: 'Why the sea is salty',
      style: 'mysterious',
      language: 'en',
      duration: 30,
      voice: firstVoice,
      voiceProvider: voices.structured.provider,
    });
    // Whatever the agent does say is kept: a German video gets a German voice.
    const german = await callOk<{ jobId: string }>(client, 'generate_video', {
      topic: 'Warum das Meer salzig ist',
      language: 'de',
      style: 'educational',
    });
    const germanJob = await server.app.inject({
      method: 'GET',
      url: `/api/videos/${german.structured.jobId}/status`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const germanVoices = await callOk<{ voices: { male: Array<{ id: string }> } }>(client, 'list_voices', { language: 'de' });
    expect((germanJob.json() as { params: Record<string, unknown> }).params).toMatchObject({
      language: 'de',
      style: 'educational',
      voice: germanVoices.structured.voices.male[0]!.id,
    });
    await pollUntilDone(client, german.structured.jobId);
  });

  it('reports progress notifications while waiting, and cancels a running video', async () => {
    const client = await connect(owner);
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    server.counts.hold = { text: 'Scene 1 tells its part', reached: () => reached(), until: new Promise((resolve) => (release = resolve)) };
    try {
      const { structured } = await callOk<{ jobId: string }>(client, 'generate_video', {
        topic: 'Tides',
        style: 'educational',
        language: 'en',
        duration: 30,
        voice: 'en-male-1',
      });
      await held;
      const progress: number[] = [];
      const waited = await client.callTool(
        { name: 'get_video_status', arguments: { videoId: structured.jobId, waitSeconds: 2 } },
        undefined,
        {
          onprogress: (notification) => progress.push(notification.progress),
        },
      );
      expect((waited.structuredContent as { status: string }).status).toBe('processing');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((value) => value >= 0 && value <= 100)).toBe(true);

      const cancelled = await callOk<{ status: string }>(client, 'cancel_video', { videoId: structured.jobId });
      expect(cancelled.structured.status).toBe('cancelled');
      expect((await pollUntilDone(client, structured.jobId)).status).toBe('cancelled');
    } finally {
      delete server.counts.hold;
      release();
    }
  });

  it('names the field of a bad argument, and applies the plan as the REST API does', async () => {
    const client = await connect(other);
    const badDuration = await callError(client, 'generate_video', {
      topic: 'Tides',
      style: 'educational',
      language: 'en',
      duration: 45,
      voice: 'x',
    });
    expect(badDuration).toContain('Duration must be one of 30, 60, 90 seconds');
    expect(badDuration).toContain('duration');
    const noVoice = await callError(client, 'generate_video', {
      topic: 'Tides',
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: '',
    });
    expect(noVoice).toMatch(/voice/);
    const badSource = await callError(client, 'generate_video', {
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: 'en-male-1',
      source: { kind: 'url', url: 'not a link' },
    });
    expect(badSource).toContain('source.url');
    expect(await callError(client, 'update_scene', { videoId: 'x', narration: 'Hello' })).toContain('scene');
    expect(await callError(client, 'list_voices', { language: 'xx' })).toContain('language');
    // A free account makes 30 s videos only: the API's own refusal comes back as the tool error.
    const tooLong = await callError(client, 'generate_video', {
      topic: 'Tides',
      style: 'educational',
      language: 'en',
      duration: 60,
      voice: 'en-male-1',
    });
    expect(tooLong).toContain('Free videos are limited to 30 seconds');
  });
});
