import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors.js';
import type { ModelManifest } from './kokoro-voices.js';
import { modelFilePath } from './kokoro-model-store.js';
import { parseKokoroVocab, type KokoroVocab } from './kokoro-text.js';
import { WorkerRequests } from './worker-requests.js';

export interface KokoroRunOutput {
  waveform: Float32Array;
  /** Per-token durations in frames, when the graph gives them (the timestamped export). */
  durations: Float32Array | null;
}

const WORKER_URL = new URL('./kokoro-worker.mjs', import.meta.url);

/**
 * The loaded model: one worker thread holding the ONNX session (its intra-op threads use the
 * cores) and espeak-ng for phonemes, plus the vocabulary and voice packs read on the main thread.
 * Scenes voiced at once queue their calls to the one session, as the espeak engine queues its own.
 */
export class KokoroEngine {
  private readonly worker: WorkerRequests;
  private vocabPromise: Promise<KokoroVocab> | undefined;
  private readonly packs = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly dir: string,
    manifest: ModelManifest,
  ) {
    const workerData = { modelPath: modelFilePath(dir, manifest.model), threads: Math.max(1, Math.min(4, availableParallelism())) };
    this.worker = new WorkerRequests({
      spawn: () => new Worker(WORKER_URL, { workerData }),
      stopped: (code) => `The voice model's worker stopped (exit code ${code})`,
      notLoaded: (error) => `The voice model could not be loaded: ${error ?? 'unknown error'}`,
    });
  }

  vocab(): Promise<KokoroVocab> {
    this.vocabPromise ??= (async () => {
      const read = (name: string) => readFile(modelFilePath(this.dir, name), 'utf8').catch(() => null);
      return parseKokoroVocab(await read('tokenizer.json'), await read('config.json'));
    })();
    return this.vocabPromise;
  }

  /** A voice pack (voices/<name>.bin: rows of 256 float32), read once. */
  voicePack(name: string): Promise<Float32Array> {
    let pack = this.packs.get(name);
    if (!pack) {
      pack = readFile(modelFilePath(this.dir, `voices/${name}.bin`)).then((bytes) => {
        const copy = new Uint8Array(bytes.byteLength);
        copy.set(bytes);
        return new Float32Array(copy.buffer, 0, Math.floor(bytes.byteLength / 4));
      });
      this.packs.set(name, pack);
      pack.catch(() => this.packs.delete(name));
    }
    return pack;
  }

  private call(message: Record<string, unknown>, transfer: ArrayBuffer[] = [], signal?: AbortSignal): Promise<Record<string, unknown>> {
    // A running ONNX call cannot be interrupted; the job stops waiting for it.
    return this.worker.request(message, { transfer, ...(signal ? { signal } : {}), onAbort: 'stop-waiting' });
  }

  /** espeak-ng's IPA of each word (espeak's separators still in; kokoro-text cleans them). */
  async phonemize(espeakVoice: string, words: readonly string[], signal?: AbortSignal): Promise<string[]> {
    const reply = await this.call({ type: 'phonemize', voice: espeakVoice, words }, [], signal);
    return reply.phonemes as string[];
  }

  async run(ids: readonly number[], style: Float32Array, speed: number, signal?: AbortSignal): Promise<KokoroRunOutput> {
    const reply = await this.call({ type: 'run', ids: [...ids], style, speed }, [], signal);
    return { waveform: reply.waveform as Float32Array, durations: (reply.durations as Float32Array | null) ?? null };
  }

  /** The graph's input and output names (a check that the file is a Kokoro model). */
  async describe(): Promise<{ inputNames: string[]; outputNames: string[] }> {
    return (await this.call({ type: 'describe' })) as unknown as { inputNames: string[]; outputNames: string[] };
  }

  close(): void {
    this.worker.reset(new CancelledError());
  }
}
