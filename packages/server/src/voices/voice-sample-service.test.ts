import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { VoiceProvider } from '@reelsmith/pipeline';
import { createOfflineVoiceProvider } from '@reelsmith/pipeline';
import { sampleSlots } from '@reelsmith/pipeline';
import { VoiceSampleService } from './voice-sample-service.js';

describe('VoiceSampleService with the real offline voice', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-samples-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes an MP3 (libmp3lame) under the spec path, atomically, and stops cleanly when asked', async () => {
    const real = createOfflineVoiceProvider();
    let calls = 0;
    // The first sample is real; later ones wait until the run is stopped, keeping the test short.
    const firstOnly: VoiceProvider = {
      ...real,
      async synthesize(request, signal) {
        calls += 1;
        if (calls === 1) return real.synthesize(request, signal);
        await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
        throw new Error('unreachable');
      },
    };
    const samplesDir = join(dataDir, 'audio', 'voice-samples');
    const service = new VoiceSampleService({
      samplesDir,
      workDir: join(dataDir, 'tmp', 'voice-samples'),
      synthesizerFor: (provider) => (provider === 'offline' ? firstOnly : null),
      log: pino({ level: 'silent' }),
    });
    expect(service.generateMissing('azure')).toEqual({ started: false, message: 'The azure voice provider is not configured' });
    expect(service.generateMissing('offline').started).toBe(true);

    const [first] = sampleSlots('offline');
    const target = service.fileOf('offline', first!);
    expect(target).toBe(join(samplesDir, `voice-${first!.voiceId}-${first!.language}.mp3`));
    for (let waited = 0; !existsSync(target) && waited < 60_000; waited += 100) await delay(100);
    expect(existsSync(target)).toBe(true);
    expect(service.generationStatus()).toMatchObject({ generating: true, provider: 'offline', done: 1 });

    await service.stop();
    expect(service.generationStatus().generating).toBe(false);
    expect(service.counts('offline')).toMatchObject({ available: 1, missing: sampleSlots('offline').length - 1 });

    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', target], {
        encoding: 'utf8',
      }),
    ) as { streams: { codec_name: string }[]; format: { duration: string } };
    expect(probe.streams[0]?.codec_name).toBe('mp3');
    expect(Number(probe.format.duration)).toBeGreaterThan(1);
    expect(readdirSync(samplesDir).filter((name) => name !== 'native')).toEqual([`voice-${first!.voiceId}-${first!.language}.mp3`]);
  });
});
