import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema } from '@reelsmith/contracts';
import {
  createProviders,
  loadPipelineConfig,
  resolveFfmpegBinaries,
  runGeneration,
  type GenerationOutput,
  type StoryboardInput,
} from '@reelsmith/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A storyboard edit through the pipeline's entry point as the server runs it (each version in a fresh
 * workspace over the video's one artefact folder), offline story, voice and pictures, captions and
 * zoom on: one scene's narration rewritten as its own words in another order (the same speech, near
 * enough, so its place keeps its timing: an edit whose speech does not fit is moved by whole steps,
 * see replanNarration, and the scenes after it with it).
 */
const root = mkdtempSync(join(tmpdir(), 'storyboard-narration-edit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const params = generateVideoBodySchema.parse({
  topic: 'The lighthouse keeper who heard a knock at midnight',
  style: 'mysterious',
  language: 'en',
  duration: 30,
  voice: 'en-us-m3',
  voiceProvider: 'offline',
  resolution: '9:16',
  enableZoom: true,
  zoomDirection: 'in',
  enableCaptions: true,
  captionStyle: 'tiktok',
});
const binaries = resolveFfmpegBinaries();
const providers = createProviders(
  loadPipelineConfig({ ...process.env, STORY_PROVIDER: 'offline', IMAGE_PROVIDER: 'offline', VOICE_PROVIDER: 'offline' }),
);
const EDITED = 2;

const render = (version: number, storyboard?: StoryboardInput): Promise<GenerationOutput> =>
  runGeneration(
    {
      jobId: 'video-1',
      params,
      workspaceDir: join(root, `v${version}`),
      artefactDir: join(root, 'artefacts'),
      providers,
      ...(storyboard ? { storyboard } : {}),
    },
    { binaries },
  );

/** The joined narration's 16-bit mono samples (48 kHz) from `from` to `to` seconds. */
function narrationSamples(version: number, from: number, to: number): Buffer {
  const wav = readFileSync(join(root, `v${version}`, 'voice', 'narration.wav'));
  const at = (seconds: number) => 44 + Math.round(seconds * 48000) * 2;
  return wav.subarray(at(from), at(to));
}

describe('a one-scene narration edit re-renders that scene alone', () => {
  let first: GenerationOutput;
  let edited: GenerationOutput;
  let newLine = '';

  beforeAll(async () => {
    first = await render(1);
    const scenes = first.scenes!;
    const words = scenes[EDITED]!.narration.split(/\s+/);
    const half = Math.ceil(words.length / 2);
    newLine = [...words.slice(half), ...words.slice(0, half)].join(' ');
    edited = await render(2, {
      title: first.title,
      scenes: scenes.map((scene, index) => ({
        narration: index === EDITED ? newLine : scene.narration,
        imagePrompt: scene.imagePrompt,
        imageSeed: scene.imageSeed,
      })),
    });
  }, 600_000);

  it('renders only the edited scene and reuses every other segment', () => {
    expect(first.renderStats.segmentsRendered).toBe(first.scenes!.length);
    expect(edited.renderStats).toMatchObject({ segmentsRendered: 1, segmentsReused: first.scenes!.length - 1 });
    expect(edited.renderStats.seconds).toBeGreaterThan(0);
    expect(edited.scenes![EDITED]!.narration).toBe(newLine);
  });

  it('keeps the total within half a second of the length picked', () => {
    expect(Math.abs(edited.durationSeconds - params.duration)).toBeLessThanOrEqual(0.5);
  });

  it("keeps every other scene's timing and audio sample for sample", () => {
    first.scenes!.forEach((scene, index) => {
      if (index === EDITED) return;
      const after = edited.scenes![index]!;
      expect([after.startSeconds, after.durationSeconds]).toEqual([scene.startSeconds, scene.durationSeconds]);
      const from = scene.startSeconds;
      const to = scene.startSeconds + scene.durationSeconds - 0.05;
      expect(narrationSamples(2, from, to).equals(narrationSamples(1, from, to))).toBe(true);
    });
    // The edited scene's own audio did change.
    const scene = first.scenes![EDITED]!;
    expect(
      narrationSamples(2, scene.startSeconds, scene.startSeconds + scene.durationSeconds).equals(
        narrationSamples(1, scene.startSeconds, scene.startSeconds + scene.durationSeconds),
      ),
    ).toBe(false);
  });
});
