import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors.js';
import type { ModelManifest } from './kokoro-voices.js';
import { modelFilePath } from './kokoro-model-store.js';
import { parseKokoroVocab, type KokoroVocab } from './kokoro-text.js';

type Reply = { requestId: number; ok: true; [key: string]: unknown } | { requestId: number; ok: false; error: string };

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
  private worker: Worker | undefined;
  private starting: Promise<Worker> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  private vocabPromise: Promise<KokoroVocab> | undefined;
  private readonly packs = new Map<string, Promise<Float32Array>>();

  constructor(
    private readonly dir: string,
    private readonly manifest: ModelManifest,
  ) {}

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

  private start(): Promise<Worker> {
    if (this.starting) return this.starting;
    this.starting = new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, {
        workerData: { modelPath: modelFilePath(this.dir, this.manifest.model), threads: Math.max(1, Math.min(4, availableParallelism())) },
      });
      this.worker = worker;
      worker.on('message', (reply: Reply | { ready: boolean; error?: string }) => {
        if ('ready' in reply) {
          if (this.pending.size === 0) worker.unref();
          if (reply.ready) resolve(worker);
          else fail(new Error(`The voice model could not be loaded: ${reply.error ?? 'unknown error'}`));
          return;
        }
        const waiter = this.pending.get(reply.requestId);
        if (!waiter) return;
        this.pending.delete(reply.requestId);
        if (this.pending.size === 0) worker.unref();
        if (reply.ok) waiter.resolve(reply);
        else waiter.reject(new Error(reply.error));
      });
      const fail = (error: Error) => {
        reject(error);
        this.reset(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (this.worker === worker) fail(new Error(`The voice model's worker stopped (exit code ${code})`));
      });
    });
    return this.starting;
  }

  private reset(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    if (worker) void worker.terminate();
  }

  private async call(
    message: Record<string, unknown>,
    transfer: ArrayBuffer[] = [],
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (signal?.aborted) throw new CancelledError();
    const worker = await this.start();
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        // A running ONNX call cannot be interrupted; the job stops waiting for it.
        this.pending.delete(requestId);
        if (this.pending.size === 0) worker.unref();
        reject(new CancelledError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, {
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ ...message, requestId }, transfer);
    });
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
    this.reset(new CancelledError());
  }
}
