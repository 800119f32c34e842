import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { WorkerRequests } from './worker-requests.js';

export interface EspeakEvent {
  type: 'word' | 'end' | 'sentence';
  /** 1-based position, in code points, of the word in the synthesised text. */
  textPosition: number;
  length: number;
  /** Milliseconds from the start of the audio. */
  audioMs: number;
}

export interface EspeakRequest {
  /** espeak voice name, optionally with a variant: "en-us+m3". */
  voice: string;
  /** Words per minute, espeak's own scale (80-450). */
  rate: number;
  /** 0-99, 50 is the voice's normal pitch. */
  pitch: number;
  /** 0-99 pitch range; higher is more expressive, 0 is monotone. */
  range: number;
  text: string;
}

export interface EspeakOutput {
  samples: Int16Array;
  sampleRate: number;
  events: EspeakEvent[];
}

const WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);

/**
 * One espeak-ng instance in a worker thread, created on first use and then kept (initialising it
 * loads 24 MB of voice data). espeak is single-threaded and keeps the voice/rate/pitch as global
 * state, so requests run strictly one after another through `queue`.
 */
class EspeakThread {
  /** Requests queued or running on this thread. */
  load = 0;
  private readonly worker = new WorkerRequests({
    spawn: () => new Worker(WORKER_URL),
    stopped: (code) => `espeak-ng worker stopped (exit code ${code})`,
  });
  private queue: Promise<unknown> = Promise.resolve();

  /** Starts the worker ahead of its first request, so its voice data loads while another thread speaks. */
  warm(): void {
    this.worker.start().catch(() => undefined);
  }

  /** Synthesises `request`, after every earlier request of this thread has finished. */
  synthesize(request: EspeakRequest, signal?: AbortSignal): Promise<EspeakOutput> {
    this.load += 1;
    const run = async (): Promise<EspeakOutput> => {
      // The worker cannot be interrupted mid-synthesis; replacing it is the only way to stop.
      const reply = await this.worker.request({ ...request }, { ...(signal ? { signal } : {}), onAbort: 'restart' });
      return { samples: reply.samples as Int16Array, sampleRate: reply.sampleRate as number, events: reply.events as EspeakEvent[] };
    };
    const result = this.queue.then(run, run).finally(() => (this.load -= 1));
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * espeak threads, one per core: a story's scenes are voiced at once (each scene takes a second or
 * more of CPU), each request going to the thread with the least queued. All threads start with the
 * first request, so the others' voice data loads while the first speaks.
 */
class EspeakEngine {
  private readonly threads: EspeakThread[];

  constructor(size = Math.max(1, Math.min(4, availableParallelism()))) {
    this.threads = Array.from({ length: size }, () => new EspeakThread());
  }

  synthesize(request: EspeakRequest, signal?: AbortSignal): Promise<EspeakOutput> {
    const thread = this.threads.reduce((least, candidate) => (candidate.load < least.load ? candidate : least));
    const result = thread.synthesize(request, signal);
    for (const other of this.threads) if (other !== thread) other.warm();
    return result;
  }
}

let sharedEngine: EspeakEngine | undefined;

/** The process-wide espeak engine. */
export function getEspeakEngine(): EspeakEngine {
  sharedEngine ??= new EspeakEngine();
  return sharedEngine;
}
