import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { VOICE_LANGUAGES, voiceSamplePath, type VoiceProviderId } from '@reelsmith/contracts';
import type { VoiceProvider } from '@reelsmith/pipeline';
import { sampleSlots, type SampleSlot } from '@reelsmith/pipeline';
import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStorage } from '../storage/object-storage.js';
import { SAMPLE_SENTENCES } from './sample-sentences.js';

const SAMPLES_URL_PREFIX = '/audio/voice-samples/';
/** Storage key prefix of the samples (the URL without its leading slash). */
export const SAMPLES_KEY_PREFIX = 'audio/voice-samples/';
/** A provider that fails this many samples in a row (a bad key, no network) is not tried further. */
const MAX_CONSECUTIVE_FAILURES = 5;
/** Breathing room between samples so video jobs and requests keep the CPU first. */
const PAUSE_BETWEEN_SAMPLES_MS = 25;

export interface SampleCounts {
  total: number;
  available: number;
  missing: number;
  byLanguage: Record<string, number>;
}

export interface GenerationStatus {
  generating: boolean;
  provider: VoiceProviderId | null;
  /** 0-100 over the samples that were missing when the run started. */
  progress: number;
  done: number;
  failed: number;
  planned: number;
}

export interface VoiceSampleServiceOptions {
  /** DATA_DIR/audio/voice-samples: what /audio/voice-samples/ serves. */
  samplesDir: string;
  /** Scratch space on the same disk, outside the served folder. */
  workDir: string;
  /** The synthesiser of a provider, or null when it is not configured. */
  synthesizerFor: (provider: VoiceProviderId) => VoiceProvider | null;
  log: FastifyBaseLogger;
  /**
   * With S3 storage the samples live in the bucket: each finished sample is uploaded, and what is
   * present comes from a listing (refreshIndex) instead of the local folder. Unset or local: files
   * under samplesDir, as always.
   */
  storage?: ObjectStorage;
  /**
   * Background work yields (the server's BackgroundGate): each sample waits while a creator's job is
   * queued or running or requests are being answered, so a fresh server's first creators go first.
   */
  gate?: { whenIdle(signal?: AbortSignal): Promise<void> };
}

/**
 * Preview samples on disk: which exist, and a background run that synthesises the missing ones
 * one at a time. A sample appears under its final name only once fully written.
 */
export class VoiceSampleService {
  private run: { provider: VoiceProviderId; controller: AbortController; promise: Promise<void> } | null = null;
  private status: GenerationStatus = { generating: false, provider: null, progress: 0, done: 0, failed: 0, planned: 0 };
  /** The bucket's sample keys (S3 only), refreshed by refreshIndex and kept current by uploads. */
  private readonly bucketKeys = new Set<string>();

  private get bucket(): ObjectStorage | null {
    return this.options.storage?.kind === 's3' ? this.options.storage : null;
  }

  /** The storage key of a sample file under samplesDir. */
  keyOf(file: string): string {
    return (
      SAMPLES_KEY_PREFIX +
      file
        .slice(this.options.samplesDir.length + 1)
        .split(/[\\/]/)
        .join('/')
    );
  }

  /** Re-reads which samples the bucket holds (S3 only; another API process may have added some). */
  async refreshIndex(): Promise<void> {
    const bucket = this.bucket;
    if (!bucket) return;
    const keys = await bucket.list(SAMPLES_KEY_PREFIX);
    this.bucketKeys.clear();
    for (const key of keys) if (key.endsWith('.mp3')) this.bucketKeys.add(key);
  }

  constructor(private readonly options: VoiceSampleServiceOptions) {
    mkdirSync(options.samplesDir, { recursive: true });
    mkdirSync(join(options.samplesDir, 'native'), { recursive: true });
    // Leftovers of a run that was killed mid-sample.
    rmSync(options.workDir, { recursive: true, force: true });
    mkdirSync(options.workDir, { recursive: true });
  }

  /** Absolute file of a sample; its URL is voiceSamplePath(...). */
  fileOf(provider: VoiceProviderId, slot: Pick<SampleSlot, 'voiceId' | 'language'>): string {
    const url = voiceSamplePath(provider, slot.voiceId, slot.language);
    return join(this.options.samplesDir, ...decodeURIComponent(url.slice(SAMPLES_URL_PREFIX.length)).split('/'));
  }

  private presentFiles(): Set<string> {
    const present = new Set<string>();
    if (this.bucket) {
      for (const key of this.bucketKeys) present.add(join(this.options.samplesDir, ...key.slice(SAMPLES_KEY_PREFIX.length).split('/')));
      return present;
    }
    for (const folder of [this.options.samplesDir, join(this.options.samplesDir, 'native')]) {
      if (!existsSync(folder)) continue;
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isFile() && entry.name.endsWith('.mp3')) present.add(join(folder, entry.name));
      }
    }
    return present;
  }

  /** Counts from the files actually present for the provider's catalogue. */
  counts(provider: VoiceProviderId): SampleCounts {
    const present = this.presentFiles();
    const slots = sampleSlots(provider);
    const byLanguage: Record<string, number> = Object.fromEntries(VOICE_LANGUAGES.map((language) => [language, 0]));
    let available = 0;
    for (const slot of slots) {
      if (!present.has(this.fileOf(provider, slot))) continue;
      available += 1;
      byLanguage[slot.language] = (byLanguage[slot.language] ?? 0) + 1;
    }
    return { total: slots.length, available, missing: slots.length - available, byLanguage };
  }

  missingSlots(provider: VoiceProviderId): SampleSlot[] {
    const present = this.presentFiles();
    return sampleSlots(provider).filter((slot) => !present.has(this.fileOf(provider, slot)));
  }

  generationStatus(): GenerationStatus {
    return { ...this.status };
  }

  /**
   * Starts synthesising the provider's missing samples in the background. Returns false with a
   * reason when it cannot start (already running, nothing missing, provider not configured).
   */
  generateMissing(provider: VoiceProviderId): { started: boolean; message: string } {
    if (this.run) return { started: false, message: `Sample generation for ${this.run.provider} is already running` };
    const synthesizer = this.options.synthesizerFor(provider);
    if (!synthesizer) return { started: false, message: `The ${provider} voice provider is not configured` };
    const missing = this.missingSlots(provider);
    if (missing.length === 0) return { started: false, message: 'Every voice sample is already present' };

    const controller = new AbortController();
    this.status = { generating: true, provider, progress: 0, done: 0, failed: 0, planned: missing.length };
    const promise = this.generate(provider, synthesizer, missing, controller.signal)
      .catch((error: unknown) => this.options.log.error({ err: error, provider }, 'voice sample generation stopped'))
      .finally(() => {
        this.status = { ...this.status, generating: false };
        this.run = null;
      });
    this.run = { provider, controller, promise };
    return { started: true, message: `Generating ${missing.length} missing ${provider} voice samples` };
  }

  private async generate(provider: VoiceProviderId, synthesizer: VoiceProvider, slots: SampleSlot[], signal: AbortSignal): Promise<void> {
    const log = this.options.log;
    log.info({ provider, missing: slots.length }, 'generating voice samples');
    let consecutiveFailures = 0;
    for (const [index, slot] of slots.entries()) {
      await this.options.gate?.whenIdle(signal).catch(() => undefined);
      if (signal.aborted) return;
      const target = this.fileOf(provider, slot);
      const bucket = this.bucket;
      if (bucket ? !this.bucketKeys.has(this.keyOf(target)) : !existsSync(target)) {
        const temp = join(this.options.workDir, `${provider}-${index}-${Date.now()}.mp3`);
        try {
          const result = await synthesizer.synthesize(
            { text: SAMPLE_SENTENCES[slot.language], voiceId: slot.voiceId, language: slot.language, outputPath: temp },
            signal,
          );
          if (bucket) {
            await bucket.put(this.keyOf(target), result.audioPath, { contentType: 'audio/mpeg', signal });
            this.bucketKeys.add(this.keyOf(target));
          } else {
            await rename(result.audioPath, target);
          }
          consecutiveFailures = 0;
        } catch (error) {
          await rm(temp, { force: true });
          if (signal.aborted) return;
          consecutiveFailures += 1;
          this.status.failed += 1;
          log.warn({ err: error, provider, voiceId: slot.voiceId, language: slot.language }, 'voice sample failed');
          if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
            log.error({ provider }, `voice sample generation gave up after ${MAX_CONSECUTIVE_FAILURES} failures in a row`);
            return;
          }
        }
      }
      this.status.done = index + 1;
      this.status.progress = Math.round(((index + 1) / slots.length) * 1000) / 10;
      await delay(PAUSE_BETWEEN_SAMPLES_MS, undefined, { signal }).catch(() => undefined);
    }
    log.info({ provider, failed: this.status.failed }, 'voice sample generation finished');
  }

  /** Resolves when the current run (if any) has finished. */
  async idle(): Promise<void> {
    await this.run?.promise;
  }

  async stop(): Promise<void> {
    this.run?.controller.abort();
    await this.idle();
  }
}
