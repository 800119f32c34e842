import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema, type PipelineStep } from '@reelsmith/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { assembleVideo } from '../assembly/assemble-video.js';
import { resolveFfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { runFfmpeg } from '../assembly/run-ffmpeg.js';
import { CancelledError, ProviderError } from '../errors.js';
import type { Providers, ProgressUpdate } from '../providers/types.js';
import { GenerationError } from './generation-error.js';
import { runGeneration } from './run-generation.js';
import { placeholderRender } from './run-test-render.js';

const binaries = resolveFfmpegBinaries();
const params = generateVideoBodySchema.parse({
  topic: 'The lighthouse at the end of the world',
  style: 'mysterious',
  language: 'en',
  duration: 30,
  voice: 'test-voice',
});

let workspaceDir: string;
beforeEach(() => {
  workspaceDir = mkdtempSync(join(tmpdir(), 'reelsmith-runner-'));
});
afterEach(() => rmSync(workspaceDir, { recursive: true, force: true }));

interface Calls {
  story: number;
  voice: number;
  images: number;
  assemble: number;
}

/** Each scene's speech: five of them and four 0.3 s pauses end half a second before the 30 s video. */
const SPOKEN_SECONDS = 5.66;

/** Providers that do real file work (short WAVs, tiny JPEGs) but no synthesis, counted per call. */
function fakeProviders(calls: Calls, failImagesAt?: number): Providers {
  return {
    story: {
      name: 'fake-story',
      health: async () => ({ name: 'fake-story', status: 'healthy', details: '' }),
      writeStory: async (request) => {
        calls.story++;
        return {
          title: 'A light in the fog',
          scenes: Array.from({ length: request.sceneCount }, (_, i) => ({
            narration: `Scene ${i} begins here now`,
            imagePrompt: `prompt ${i}`,
          })),
        };
      },
    },
    voice: {
      name: 'fake-voice',
      wordsPerMinute: 160,
      health: async () => ({ name: 'fake-voice', status: 'healthy', details: '' }),
      synthesize: async (request, signal) => {
        calls.voice++;
        await runFfmpeg(
          binaries.ffmpegPath,
          ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SPOKEN_SECONDS}`, '-ar', '22050', request.outputPath],
          { signal },
        );
        const words = request.text.split(' ').map((word, i) => ({ word, start: i * 0.2, end: i * 0.2 + 0.15 }));
        return { audioPath: request.outputPath, durationSeconds: SPOKEN_SECONDS, words };
      },
    },
    images: {
      name: 'fake-images',
      health: async () => ({ name: 'fake-images', status: 'healthy', details: '' }),
      generateImage: async (request) => {
        calls.images++;
        if (failImagesAt !== undefined && request.sceneIndex === failImagesAt) {
          throw new ProviderError('The image service is unavailable right now', 'fake-images', true, 503);
        }
        writeFileSync(request.outputPath, `image ${request.sceneIndex}`);
        return { imagePath: request.outputPath };
      },
    },
  };
}

function fakeAssemble(calls: Calls): typeof assembleVideo {
  return placeholderRender((_request, options) => {
    calls.assemble++;
    options?.onProgress?.(50);
  });
}

const zeroCalls = (): Calls => ({ story: 0, voice: 0, images: 0, assemble: 0 });

describe('runGeneration', () => {
  it('runs every step in order with progress that never goes down and ends at 100', async () => {
    const calls = zeroCalls();
    const updates: ProgressUpdate[] = [];
    const ran: PipelineStep[] = [];
    const output = await runGeneration(
      { jobId: 'j1', params, workspaceDir, providers: fakeProviders(calls), onProgress: (u) => updates.push(u) },
      { binaries, assemble: fakeAssemble(calls), onStepRun: (s) => ran.push(s) },
    );
    expect(ran).toEqual(['setup', 'story', 'voice', 'images', 'video']);
    expect(calls).toEqual({ story: 1, voice: 5, images: 5, assemble: 1 });
    expect(output.title).toBe('A light in the fog');
    const progress = updates.map((u) => u.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
    expect(new Set(updates.map((u) => u.step))).toEqual(new Set(['setup', 'story', 'voice', 'images', 'video']));
  });

  it('makes the pictures while the narration is joined, not after it', async () => {
    const calls = zeroCalls();
    const providers = fakeProviders(calls);
    const narrationAtFirstPicture: boolean[] = [];
    const generateImage = providers.images.generateImage;
    providers.images.generateImage = async (request, signal) => {
      narrationAtFirstPicture.push(existsSync(join(workspaceDir, 'voice', 'narration.wav')));
      return generateImage(request, signal);
    };
    const updates: ProgressUpdate[] = [];
    await runGeneration(
      { jobId: 'j-overlap', params, workspaceDir, providers, onProgress: (u) => updates.push(u) },
      { binaries, assemble: fakeAssemble(calls) },
    );
    // The joined narration is written by an ffmpeg process; the first picture is asked for before it exists.
    expect(narrationAtFirstPicture[0]).toBe(false);
    expect(existsSync(join(workspaceDir, 'voice', 'narration.wav'))).toBe(true);
    expect(calls.images).toBe(5);
  });

  it('lays scenes out from the per-scene narration so cuts follow the voice', async () => {
    const calls = zeroCalls();
    let scenes: { start: number; end: number }[] = [];
    await runGeneration(
      { jobId: 'j1', params, workspaceDir, providers: fakeProviders(calls) },
      {
        binaries,
        assemble: async (request, options) => {
          scenes = request.scenes;
          return fakeAssemble(calls)(request, options);
        },
      },
    );
    // 5.66 s of audio per scene and 0.3 s between them, each cut on the frame nearest its scene's first word.
    expect(scenes.map((s) => Number(s.start.toFixed(2)))).toEqual([0, 5.97, 11.93, 17.87, 23.83]);
    expect(scenes.at(-1)?.end).toBe(30);
  });

  it('resumes a failed run without redoing finished steps or finished scenes', async () => {
    const calls = zeroCalls();
    await expect(
      runGeneration(
        { jobId: 'j1', params, workspaceDir, providers: fakeProviders(calls, 3) },
        { binaries, assemble: fakeAssemble(calls), providerRetryDelaysMs: [1, 1, 1] },
      ),
    ).rejects.toBeInstanceOf(GenerationError);
    // Scene 3's retryable failure is tried once and retried three times before the step fails.
    expect(calls).toMatchObject({ story: 1, voice: 5, images: 4 + 3, assemble: 0 });

    const again = zeroCalls();
    const ran: PipelineStep[] = [];
    const updates: ProgressUpdate[] = [];
    await runGeneration(
      { jobId: 'j1', params, workspaceDir, providers: fakeProviders(again), onProgress: (u) => updates.push(u) },
      { binaries, assemble: fakeAssemble(again), onStepRun: (s) => ran.push(s) },
    );
    expect(ran).toEqual(['images', 'video']);
    // Only the scene that failed (index 3) and the one after it are drawn again.
    expect(again).toEqual({ story: 0, voice: 0, images: 2, assemble: 1 });
    const progress = updates.map((u) => u.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('rewrites a story its voice cannot fit to the video, to a budget scaled by what the voice took, and keeps only the used voicing', async () => {
    const budgets: number[] = [];
    const providers = fakeProviders(zeroCalls());
    let voiced = 0;
    // A writer that follows its budget, and a voice far slower than its nominal rate (0.5 s a word).
    providers.story.writeStory = async (request) => {
      budgets.push(request.targetWords);
      const perScene = Math.max(1, Math.round(request.targetWords / request.sceneCount));
      return {
        title: 'Fitted',
        scenes: Array.from({ length: request.sceneCount }, (_, i) => ({
          narration: Array.from({ length: perScene }, (_, w) => `w${budgets.length}-${i}-${w}`).join(' '),
          imagePrompt: `p${i}`,
        })),
      };
    };
    providers.voice.synthesize = async (request, signal) => {
      voiced += 1;
      const words = request.text.split(' ');
      await runFfmpeg(
        binaries.ffmpegPath,
        ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${words.length * 0.5}`, '-ar', '22050', request.outputPath],
        { signal },
      );
      return {
        audioPath: request.outputPath,
        durationSeconds: words.length * 0.5,
        words: words.map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4 })),
      };
    };
    let narrationEnd = 0;
    await runGeneration(
      { jobId: 'fit', params, workspaceDir, providers },
      {
        binaries: { ...binaries },
        assemble: async (request, options) => {
          narrationEnd = request.words.at(-1)!.end;
          return fakeAssemble(zeroCalls())(request, options);
        },
      },
    );
    expect(budgets.length).toBe(2);
    // 160 wpm budgeted 76 words; at 0.5 s a word 28.3 s of speech holds about 57.
    expect(budgets[1]!).toBeLessThan(budgets[0]!);
    expect(budgets[1]!).toBeGreaterThanOrEqual(50);
    expect(budgets[1]!).toBeLessThanOrEqual(60);
    // The first draft's voicing is gone; the voice step reused the second's.
    const voiceFiles = readdirSync(join(workspaceDir, 'voice')).filter(
      (name) => name.endsWith('.json') && name !== 'manifest.json' && name !== 'placement.json',
    );
    expect(voiceFiles).toHaveLength(5);
    expect(voiced).toBe(10);
    // Paced, the kept draft ends within the video's last second.
    expect(narrationEnd).toBeGreaterThanOrEqual(29 - 0.1);
    expect(narrationEnd).toBeLessThanOrEqual(30);
  });

  it('redoes the story and what follows when the inputs change', async () => {
    const calls = zeroCalls();
    await runGeneration(
      { jobId: 'j1', params, workspaceDir, providers: fakeProviders(calls) },
      { binaries, assemble: fakeAssemble(calls) },
    );
    const ran: PipelineStep[] = [];
    await runGeneration(
      { jobId: 'j1', params: { ...params, topic: 'Another topic' }, workspaceDir, providers: fakeProviders(zeroCalls()) },
      { binaries, assemble: fakeAssemble(zeroCalls()), onStepRun: (s) => ran.push(s) },
    );
    expect(ran).toEqual(['setup', 'story', 'voice', 'images', 'video']);
  });

  it('gives the provider message to the user, not a stack', async () => {
    const error = await runGeneration(
      { jobId: 'j1', params, workspaceDir, providers: fakeProviders(zeroCalls(), 0) },
      { binaries, assemble: fakeAssemble(zeroCalls()) },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as GenerationError).message).toBe('The image service is unavailable right now');
    expect((error as GenerationError).step).toBe('images');
  });

  describe('a failing service is blamed on its own step', () => {
    const unreachable = (service: string) =>
      new ProviderError(`Could not reach the ${service} service (connection refused)`, `fake-${service}`, true);
    async function failedStep(breakProviders: (providers: Providers) => void, assemble = fakeAssemble(zeroCalls())) {
      const providers = fakeProviders(zeroCalls());
      breakProviders(providers);
      const error = await runGeneration(
        { jobId: 'j1', params, workspaceDir, providers },
        { binaries, assemble, providerRetryDelaysMs: [] },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GenerationError);
      return (error as GenerationError).step;
    }

    it('story: the writer unreachable', async () => {
      expect(
        await failedStep((providers) => {
          providers.story.writeStory = () => Promise.reject(unreachable('story'));
        }),
      ).toBe('story');
    });

    it('voice: the voice unreachable, though the story step is the one voicing its draft to check it fits', async () => {
      expect(
        await failedStep((providers) => {
          providers.voice.synthesize = () => Promise.reject(unreachable('voice'));
        }),
      ).toBe('voice');
    });

    it('images: the picture service unreachable', async () => {
      expect(
        await failedStep((providers) => {
          providers.images.generateImage = () => Promise.reject(unreachable('image'));
        }),
      ).toBe('images');
    });

    it('video: the render failing', async () => {
      expect(
        await failedStep(
          () => undefined,
          () => Promise.reject(new Error('the encoder stopped')),
        ),
      ).toBe('video');
    });
  });

  it('stops at once when cancelled, without writing the step as done', async () => {
    const controller = new AbortController();
    const calls = zeroCalls();
    const providers = fakeProviders(calls);
    const original = providers.voice.synthesize;
    providers.voice.synthesize = async (request, signal) => {
      if (calls.voice === 2) controller.abort();
      return original(request, signal);
    };
    await expect(
      runGeneration(
        { jobId: 'j1', params, workspaceDir, providers, signal: controller.signal },
        { binaries, assemble: fakeAssemble(calls) },
      ),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(existsSync(join(workspaceDir, 'voice', 'manifest.json'))).toBe(false);
    expect(calls.images).toBe(0);
  });
});

describe('background music', () => {
  async function musicOf(overrides: Partial<typeof params>, run: { music?: { path: string; volumePercent: number } } = {}) {
    let music: { path: string; volumePercent: number } | undefined;
    const calls = zeroCalls();
    await runGeneration(
      { jobId: 'j-music', params: { ...params, ...overrides }, workspaceDir, providers: fakeProviders(calls), ...run },
      { binaries, assemble: async (request, options) => ((music = request.music), fakeAssemble(calls)(request, options)) },
    );
    return music;
  }

  it("mixes the style's mood by default, written once into the video's artefacts", async () => {
    expect((await musicOf({ style: 'mysterious', music: 'auto' }))?.path).toMatch(/music\/mysterious\.wav$/);
    rmSync(join(workspaceDir, 'video'), { recursive: true, force: true });
    expect(existsSync(join(workspaceDir, 'music', 'mysterious.wav'))).toBe(true);
  });

  it("uses the chosen mood, no music for none, and the creator's own track over either", async () => {
    expect((await musicOf({ music: 'playful' }))?.path).toMatch(/music\/playful\.wav$/);
    rmSync(workspaceDir, { recursive: true, force: true });
    expect(await musicOf({ music: 'none' })).toBeUndefined();
    rmSync(workspaceDir, { recursive: true, force: true });
    const own = { path: join(tmpdir(), 'own-track.mp3'), volumePercent: 40 };
    expect(await musicOf({ music: 'upbeat' }, { music: own })).toEqual(own);
  });
});

describe('stock picture credits', () => {
  it('tells each scene which pictures earlier scenes use, and returns their photographers', async () => {
    const calls = zeroCalls();
    const providers = fakeProviders(calls);
    const avoided: Array<readonly string[] | undefined> = [];
    providers.images = {
      ...providers.images,
      generateImage: async (request) => {
        avoided.push(request.avoidSourceIds);
        writeFileSync(request.outputPath, 'jpg');
        return {
          imagePath: request.outputPath,
          credit: {
            source: 'pexels',
            sourceId: `pexels:${avoided.length}`,
            author: `Author ${avoided.length}`,
            authorUrl: 'https://example.com/a',
            pageUrl: 'https://example.com/p',
          },
        };
      },
    };
    const output = await runGeneration(
      { jobId: 'j-credits', params: { ...params, topic: 'Octopuses' }, workspaceDir, providers },
      { binaries, assemble: fakeAssemble(calls) },
    );
    expect(avoided).toEqual([
      [],
      ['pexels:1'],
      ['pexels:1', 'pexels:2'],
      ['pexels:1', 'pexels:2', 'pexels:3'],
      ['pexels:1', 'pexels:2', 'pexels:3', 'pexels:4'],
    ]);
    expect(output.credits?.map((credit) => credit.author)).toEqual(['Author 1', 'Author 2', 'Author 3', 'Author 4', 'Author 5']);
  });

  it('tells each scene its words and what the scene before shows, and returns what each picture shows', async () => {
    const calls = zeroCalls();
    const providers = fakeProviders(calls);
    const seen: Array<{ narration?: string; language?: string; previous?: string }> = [];
    providers.images = {
      ...providers.images,
      generateImage: async (request) => {
        seen.push({ narration: request.narration, language: request.language, previous: request.previousSubject });
        writeFileSync(request.outputPath, 'jpg');
        return {
          imagePath: request.outputPath,
          subject: `thing ${seen.length}`,
          artwork: { name: 'Fluent Emoji', author: 'Microsoft', url: 'https://example.com/fe', licence: 'MIT' },
        };
      },
    };
    const output = await runGeneration(
      { jobId: 'j-subjects', params: { ...params, topic: 'Bicycles' }, workspaceDir, providers },
      { binaries, assemble: fakeAssemble(calls) },
    );
    expect(seen.map((scene) => scene.previous)).toEqual([undefined, 'thing 1', 'thing 2', 'thing 3', 'thing 4']);
    expect(seen.every((scene) => scene.language === params.language && (scene.narration ?? '').length > 0)).toBe(true);
    expect(output.scenes?.map((scene) => scene.subject)).toEqual(['thing 1', 'thing 2', 'thing 3', 'thing 4', 'thing 5']);
    // The artwork set is credited once, however many pictures draw on it.
    expect(output.artwork).toEqual([{ name: 'Fluent Emoji', author: 'Microsoft', url: 'https://example.com/fe', licence: 'MIT' }]);
  });

  it('hands stock video clips to the assembly with their scenes, and keeps them when the render is resumed', async () => {
    const calls = zeroCalls();
    const providers = fakeProviders(calls);
    providers.images = {
      ...providers.images,
      generateImage: async (request) => {
        calls.images++;
        writeFileSync(request.outputPath, 'jpg');
        if (request.sceneIndex % 2 === 1) return { imagePath: request.outputPath };
        const videoPath = request.outputPath.replace(/\.jpg$/, '.mp4');
        writeFileSync(videoPath, 'mp4');
        return { imagePath: request.outputPath, videoPath };
      },
    };
    const clipsSeen: Array<Array<string | undefined>> = [];
    const assemble: typeof assembleVideo = async (request, options) => {
      clipsSeen.push(request.scenes.map((scene) => scene.videoPath));
      if (clipsSeen.length === 1) throw new Error('the render machine went away');
      return fakeAssemble(calls)(request, options);
    };
    const run = { jobId: 'j-clips', params, workspaceDir, providers };
    await expect(runGeneration(run, { binaries, assemble })).rejects.toBeInstanceOf(GenerationError);
    await runGeneration(run, { binaries, assemble });
    expect(calls.images).toBe(5);
    for (const clips of clipsSeen) {
      expect(clips.map((clip) => (clip ? 'clip' : 'still'))).toEqual(['clip', 'still', 'clip', 'still', 'clip']);
      for (const clip of clips) if (clip) expect(existsSync(clip)).toBe(true);
    }
  });
});
