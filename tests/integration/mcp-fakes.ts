import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveFfmpegBinaries, runGeneration } from '@reelsmith/pipeline';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { fakeStoryboardProviders, quickAssemble, type Counts } from './storyboard-fakes.js';

export const PUBLIC_URL = 'https://studio.example';

export interface McpTestServer {
  app: App;
  /** Where the server listens, e.g. http://127.0.0.1:41234 */
  url: string;
  counts: Counts;
  close: () => Promise<void>;
}

/**
 * The real API server on a free loopback port, making real storyboards with quick providers (the
 * pipeline's runner with fake story, voice and pictures and a stand-in for the final ffmpeg render).
 */
export async function startMcpTestServer(): Promise<McpTestServer> {
  const binaries = resolveFfmpegBinaries();
  const counts: Counts = { voiced: [], painted: [] };
  const database: TestDatabase = await createTestDatabase('sqlite');
  const app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000', PUBLIC_URL }), {
    voices: { autoGenerateOfflineSamples: false },
    jobs: {
      runner: (run) => runGeneration(run, { binaries, assemble: quickAssemble }),
      providersFor: () => fakeStoryboardProviders(counts),
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    counts,
    close: async () => {
      await app.close();
      await database.cleanup();
    },
  };
}

export interface ToolAnswer<T> {
  structured: T;
  text: string;
}

/** Calls a tool that must succeed; its structuredContent and text summary. */
export async function callOk<T>(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer<T>> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  return { structured: result.structuredContent as T, text };
}

/** Calls a tool that must fail; the error text the agent reads. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
  expect(result.isError, `${name} should have failed but answered: ${text}`).toBe(true);
  return text;
}

export interface StatusAnswer {
  videoId: string;
  status: string;
  step: string | null;
  percent: number;
  version?: number;
  videoUrl?: string;
  posterUrl?: string;
  durationSeconds?: number;
  error: string | null;
}

/**
 * Asks get_video_status until the video is no longer queued or running, letting each call wait (as
 * agents are told to): /mcp takes 120 requests a minute from an account, a read every 100 ms is more.
 */
export async function pollUntilDone(client: Client, videoId: string, timeoutMs = 60_000): Promise<StatusAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { structured } = await callOk<StatusAnswer>(client, 'get_video_status', { videoId, waitSeconds: 5 });
    if (!['pending', 'queued', 'processing', 'in_progress'].includes(structured.status)) return structured;
    if (Date.now() > deadline) throw new Error(`video ${videoId} still ${structured.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const TOOL_NAMES = [
  'generate_video',
  'get_video_status',
  'list_videos',
  'list_voices',
  'get_storyboard',
  'update_scene',
  'render_video',
  'cancel_video',
  'delete_video',
  'research_articles',
];
