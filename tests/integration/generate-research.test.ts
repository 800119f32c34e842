import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '@reelsmith/pipeline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run generate` on a topic says what the video was told from: the Wikipedia article it found
 * (and its narration, scene by scene), or why it was told from the topic alone. Wikimedia is the
 * local fake; "down" is a port nothing listens on.
 */
const root = resolve(import.meta.dirname, '../..');
const outDir = mkdtempSync(join(tmpdir(), 'generate-research-'));
let fake: FakeWikimediaServer;

beforeAll(async () => {
  fake = await startFakeWikimediaServer();
});
afterAll(async () => {
  await fake.close();
  rmSync(outDir, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function generate(topic: string, env: Record<string, string>): Promise<string> {
  // Square and still: what is tested is what the video was told from, and a smaller render is quicker.
  const args = ['run', 'generate', '--', '--topic', topic, '--resolution', '1:1', '--no-zoom', '--out', join(outDir, 'video.mp4')];
  const { stdout } = await promisify(execFile)('npm', args, {
    cwd: root,
    // The natural voices' model is never fetched in a test; espeak-ng speaks for them.
    env: { ...process.env, VOICE_MODEL_URL: 'off', ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return stdout;
}

describe('npm run generate tells a topic from Wikipedia, or says why not', () => {
  it('names the article a near-miss topic is told from, and prints its script', { timeout: 300_000 }, async () => {
    const stdout = await generate('How honeybees talk by dancing', fake.env);
    expect(stdout).toContain(`told from Wikipedia: "Honey bee" (${fake.url}/en/wiki/Honey_bee)`);
    expect(stdout).toMatch(/scene 1: [^\n]*\bhoney ?bees?\b/iu);
    expect(stdout).toMatch(/waggle dance/u);
    expect(stdout).not.toContain('Told from the topic alone');
  });

  it('says the video was told from the topic alone when Wikipedia cannot be reached', { timeout: 300_000 }, async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const stdout = await generate('How honeybees talk by dancing', {
      ...fake.env,
      WIKIPEDIA_API_URL: `${down}/{lang}/w/api.php`,
      COMMONS_API_URL: `${down}/commons/w/api.php`,
    });
    expect(stdout).toContain('note: Told from the topic alone: Wikipedia could not be reached');
    expect(stdout).toMatch(/\(1080x1080, 30\.00 s/u);
  });
});
