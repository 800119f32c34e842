import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Storyboard } from '@reelsmith/contracts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callError, callOk, pollUntilDone, startMcpTestServer, TOOL_NAMES, type McpTestServer } from './mcp-fakes.js';
import { registerUser, subscribe, type TestUser } from './server-jobs-fakes.js';

/** The `reelsmith-mcp` bin, as a desktop agent's config starts it. */
const BIN = fileURLToPath(new URL('../../packages/mcp/bin/reelsmith-mcp.mjs', import.meta.url));

describe('the MCP server on stdio (reelsmith-mcp)', () => {
  let server: McpTestServer;
  let owner: TestUser;
  let other: TestUser;
  const clients: Client[] = [];

  async function connect(user: TestUser): Promise<Client> {
    const client = new Client({ name: 'reelsmith-desktop-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: { PATH: process.env.PATH ?? '', REELSMITH_API_URL: server.url, REELSMITH_API_KEY: user.apiKey },
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    server = await startMcpTestServer();
    owner = await registerUser(server.app, 'stdio-owner');
    other = await registerUser(server.app, 'stdio-other');
    await subscribe(server.app, owner.id, 'pro_plan');
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.close();
  });

  it('refuses to start without a key, saying which variable to set', () => {
    const run = spawnSync(process.execPath, [BIN], {
      env: { PATH: process.env.PATH ?? '', REELSMITH_API_URL: server.url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('REELSMITH_API_KEY is not set');
    expect(run.stdout).toBe('');
  });

  it('lists the tools, makes a video to an absolute link, edits and re-renders it, and refuses another account', async () => {
    const client = await connect(owner);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());

    const { structured } = await callOk<{ jobId: string }>(client, 'generate_video', {
      topic: 'How bees dance',
      style: 'educational',
      language: 'en',
      duration: 30,
      voice: 'en-male-1',
    });
    const done = await pollUntilDone(client, structured.jobId);
    expect(done).toMatchObject({ status: 'completed', version: 1 });
    // Links point at the API the bin was given (REELSMITH_API_URL).
    expect(done.videoUrl).toMatch(new RegExp(`^${server.url}/output/.+\\.mp4$`));
    expect((await fetch(done.videoUrl!)).status).toBe(200);

    const board = await callOk<Storyboard>(client, 'get_storyboard', { videoId: structured.jobId });
    const edited = await callOk<Storyboard>(client, 'update_scene', {
      videoId: structured.jobId,
      scene: 1,
      narration: 'Bees dance to point the way',
    });
    expect(edited.structured.scenes[0]).toMatchObject({ id: board.structured.scenes[0]!.id, narration: 'Bees dance to point the way' });
    expect((await callOk<{ version: number }>(client, 'render_video', { videoId: structured.jobId })).structured.version).toBe(2);
    expect(await pollUntilDone(client, structured.jobId)).toMatchObject({ status: 'completed', version: 2 });

    const stranger = await connect(other);
    const refused = await callError(stranger, 'get_storyboard', { videoId: structured.jobId });
    expect(refused).toBe(`No video with id ${structured.jobId} in this account. list_videos shows the ids of your videos.`);
    expect(
      await callError(stranger, 'generate_video', { topic: 'Bees', style: 'educational', language: 'en', duration: 90, voice: 'x' }),
    ).toContain('Free videos are limited to 30 seconds');
    expect(
      await callError(stranger, 'generate_video', { topic: '', style: 'educational', language: 'en', duration: 30, voice: 'x' }),
    ).toContain('topic');
  });
});
