import { createServer, type AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelHost, type FakeModelHost } from '../testing/fake-model-host.js';
import { tempFoldersForFile } from '../testing/temp-folders.js';
import { manifestFor, tinyKokoroFiles } from '../testing/tiny-kokoro-model.js';
import {
  downloadModel,
  isModelReady,
  loadModelManifest,
  modelFilePath,
  ModelDownloadError,
  type ModelStatus,
} from './kokoro-model-store.js';
import { KOKORO_MANIFEST } from './kokoro-voices.js';
import { NeuralVoiceModel } from './neural-voice-model.js';

const files = tinyKokoroFiles();
const manifest = manifestFor(files);
let host: FakeModelHost;
const freshDir = tempFoldersForFile('reelsmith-model-');
const modelRequests = () => host.requests.filter((request) => request.path.endsWith('/onnx/model.onnx'));

beforeAll(async () => {
  host = await startFakeModelHost({ files });
});
afterEach(() => {
  host.requests.length = 0;
});
afterAll(() => host.close());

describe('the voice model download', () => {
  it('fetches every file from <url>/resolve/main/<path>, verifies it and reports progress to 100%', async () => {
    const dir = freshDir();
    const seen: ModelStatus[] = [];
    expect(await isModelReady(dir, manifest)).toBe(false);
    await downloadModel({ baseUrl: host.url, dir, manifest, onProgress: (status) => seen.push(status) });
    expect(await isModelReady(dir, manifest)).toBe(true);
    for (const file of files) expect((await readFile(modelFilePath(dir, file.path))).equals(file.body)).toBe(true);
    expect(host.requests.map((request) => request.path).sort()).toEqual(
      files.map((file) => `/onnx-community/Kokoro-82M-v1.0-ONNX/resolve/main/${file.path}`).sort(),
    );
    expect(seen.at(0)?.state).toBe('downloading');
    expect(seen.at(-1)).toMatchObject({ state: 'ready', progress: 100 });

    // Once there, nothing is fetched again.
    host.requests.length = 0;
    await downloadModel({ baseUrl: host.url, dir, manifest });
    expect(host.requests).toEqual([]);
  });

  it("fetches at the manifest's pinned revision, which a host without that commit refuses", async () => {
    const revision = '1939ad2a8e416c0acfeecc08a694d14ef25f2231';
    const pinned = await startFakeModelHost({ files, revision });
    try {
      const dir = freshDir();
      await downloadModel({ baseUrl: pinned.url, dir, manifest: { ...manifest, revision } });
      expect(await isModelReady(dir, manifest)).toBe(true);
      expect(pinned.requests.every((request) => request.path.includes(`/resolve/${revision}/`))).toBe(true);
      // The same manifest against a host serving only main: "Entry not found", nothing kept.
      const other = freshDir();
      await expect(downloadModel({ baseUrl: host.url, dir: other, manifest: { ...manifest, revision } })).rejects.toThrow(
        ModelDownloadError,
      );
      expect(await isModelReady(other, manifest)).toBe(false);
    } finally {
      await pinned.close();
    }
  });

  it('pins the real model: a commit, and every file by size and SHA-256', () => {
    expect(KOKORO_MANIFEST.revision).toMatch(/^[0-9a-f]{40}$/);
    for (const file of KOKORO_MANIFEST.files) expect(file.sha256, file.path).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a corrupted file by its checksum and fetches it again', async () => {
    const dir = freshDir();
    host.fail('onnx/model.onnx', { kind: 'corrupt' });
    await downloadModel({ baseUrl: host.url, dir, manifest });
    expect(modelRequests()).toHaveLength(2);
    expect((await readFile(modelFilePath(dir, 'onnx/model.onnx'))).equals(files[0]!.body)).toBe(true);
  });

  it('gives up when the file is wrong twice, keeping nothing of it', async () => {
    const dir = freshDir();
    host.fail('onnx/model.onnx', { kind: 'corrupt' });
    host.fail('onnx/model.onnx', { kind: 'corrupt' });
    const failure = await downloadModel({ baseUrl: host.url, dir, manifest }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelDownloadError);
    expect(String(failure)).toMatch(/onnx\/model\.onnx failed its SHA-256 check/);
    expect(await isModelReady(dir, manifest)).toBe(false);
    await expect(readFile(`${modelFilePath(dir, 'onnx/model.onnx')}.partial`)).rejects.toThrow();
  });

  it('resumes a truncated download with a Range request', async () => {
    const dir = freshDir();
    host.fail('onnx/model.onnx', { kind: 'truncate', bytes: 100 });
    await expect(downloadModel({ baseUrl: host.url, dir, manifest })).rejects.toThrow(/model\.onnx/);
    expect(await isModelReady(dir, manifest)).toBe(false);
    host.requests.length = 0;
    await downloadModel({ baseUrl: host.url, dir, manifest });
    expect(modelRequests()).toEqual([expect.objectContaining({ range: 'bytes=100-' })]);
    expect((await readFile(modelFilePath(dir, 'onnx/model.onnx'))).equals(files[0]!.body)).toBe(true);
    expect(await isModelReady(dir, manifest)).toBe(true);
  });

  it('refuses a file changed on disk after it was verified', async () => {
    const dir = freshDir();
    await downloadModel({ baseUrl: host.url, dir, manifest });
    await writeFile(modelFilePath(dir, 'voices/af_heart.bin'), Buffer.alloc(files[3]!.body.length));
    expect(await isModelReady(dir, manifest)).toBe(false);
  });

  it('says which host it cannot reach, and the model stays absent', async () => {
    const dir = freshDir();
    const port = await closedPort();
    const model = new NeuralVoiceModel({
      modelsDir: dir,
      modelUrl: `http://127.0.0.1:${port}/repo`,
      manifestPath: await writeManifest(dir),
    });
    expect(await model.download()).toBe(false);
    expect(model.status()).toMatchObject({ state: 'failed', error: `cannot reach 127.0.0.1:${port} (ECONNREFUSED)` });
    expect(model.unavailableReason()).toBe(`Natural voices are not available: cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(await model.isReady()).toBe(false);
  });

  it('reads a manifest file and refuses one that is not a manifest', async () => {
    const dir = freshDir();
    expect(await loadModelManifest(await writeManifest(dir))).toEqual(manifest);
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ model: 'x.onnx', files: [{ path: '../x.onnx', size: 1, sha256: null }] }));
    await expect(loadModelManifest(bad)).rejects.toThrow(/not a model manifest/);
    // The pinned manifest: Kokoro's graph and voice packs, every voice pack's sum pinned.
    const pinned = await loadModelManifest();
    expect(pinned.model).toBe('onnx/model.onnx');
    expect(pinned.files.filter((file) => file.path.startsWith('voices/')).every((file) => file.sha256 && file.size === 510 * 256 * 4)).toBe(
      true,
    );
  });
});

/** A port nothing listens on: one the system gave a server that is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function writeManifest(dir: string): Promise<string> {
  const file = path.join(dir, 'manifest.json');
  await writeFile(file, JSON.stringify(manifest));
  return file;
}
