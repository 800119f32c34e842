import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema, type GenerationParams } from '@reelsmith/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { assembleVideo } from '../assembly/assemble-video.js';
import { resolveFfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { runFfmpeg } from '../assembly/run-ffmpeg.js';
import type { AssemblyRequest, GenerationOutput, Providers, StoryboardInput } from '../providers/types.js';
import { runGeneration } from './run-generation.js';
import { placeholderRender } from './run-test-render.js';

const binaries = resolveFfmpegBinaries();
const baseParams = generateVideoBodySchema.parse({ topic: 'Tides', style: 'mysterious', language: 'en', duration: 30, voice: 'voice-a' });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reelsmith-storyboard-runner-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Made {
  /** The subjects each painted scene was asked to pass over. */
  avoided?: Array<readonly string[] | undefined>;
  /** Texts voiced in this run. */
  voiced: string[];
  /** Scene seeds painted in this run. */
  painted: number[];
  assembled: AssemblyRequest[];
}

function providers(made: Made, secondsPerScene = 1): Providers {
  return {
    story: {
      name: 'fake-story',
      health: async () => ({ name: 'fake-story', status: 'healthy', details: '' }),
      writeStory: async (request) => ({
        title: 'Tides',
        scenes: Array.from({ length: request.sceneCount }, (_, i) => ({ narration: `Scene ${i} speaks`, imagePrompt: `shore ${i}` })),
      }),
    },
    voice: {
      name: 'fake-voice',
      wordsPerMinute: 160,
      health: async () => ({ name: 'fake-voice', status: 'healthy', details: '' }),
      synthesize: async (request, signal) => {
        made.voiced.push(request.text);
        await runFfmpeg(
          binaries.ffmpegPath,
          ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${secondsPerScene}`, '-ar', '22050', request.outputPath],
          { signal },
        );
        return {
          audioPath: request.outputPath,
          durationSeconds: secondsPerScene,
          words: request.text.split(' ').map((word, i) => ({ word, start: i * 0.2, end: i * 0.2 + 0.15 })),
        };
      },
    },
    images: {
      name: 'fake-images',
      health: async () => ({ name: 'fake-images', status: 'healthy', details: '' }),
      generateImage: async (request) => {
        made.painted.push(request.sceneIndex);
        (made.avoided ??= []).push(request.avoidSubjects);
        writeFileSync(request.outputPath, `image ${request.prompt} ${request.sceneIndex}`);
        return { imagePath: request.outputPath };
      },
    },
  };
}

function assemble(made: Made): typeof assembleVideo {
  return placeholderRender((request) => made.assembled.push(request));
}

let runNumber = 0;
/** One render as the server runs it: a fresh workspace each time, the same artefact folder for the video. */
async function render(
  options: { params?: GenerationParams; storyboard?: StoryboardInput; secondsPerScene?: number } = {},
): Promise<{ made: Made; output: GenerationOutput }> {
  const made: Made = { voiced: [], painted: [], assembled: [] };
  runNumber++;
  const output = await runGeneration(
    {
      jobId: 'video-1',
      params: options.params ?? baseParams,
      workspaceDir: join(root, `workspace-${runNumber}`),
      artefactDir: join(root, 'artefacts'),
      providers: providers(made, options.secondsPerScene),
      ...(options.storyboard ? { storyboard: options.storyboard } : {}),
    },
    { binaries, assemble: assemble(made) },
  );
  return { made, output };
}

const storyboardOf = (output: GenerationOutput): StoryboardInput => ({
  title: output.title,
  scenes: output.scenes!.map((scene) => ({ narration: scene.narration, imagePrompt: scene.imagePrompt, imageSeed: scene.imageSeed })),
});

describe('runGeneration with a storyboard: what an edit reuses', () => {
  it('voices and paints every scene once, reports timings, and renders through the video segment cache', async () => {
    const { made, output } = await render();
    expect(made.voiced).toHaveLength(5);
    expect(made.painted).toEqual([0, 1, 2, 3, 4]);
    expect(made.assembled[0]!.segmentCacheDir).toBe(join(root, 'artefacts', 'segments'));
    // 1 s of speech per scene is far too short for 30 s: paced at the limits, pauses of 1 s and the
    // voice at 0.9, each cut on the frame nearest its scene's first word.
    expect(output.scenes!.map((scene) => scene.startSeconds)).toEqual([0, 2.1, 4.23, 6.33, 8.43]);
    expect(output.scenes![0]!.durationSeconds).toBe(2.1);
  });

  it('reports scene timings as rendered when a long narration is sped up to fit', async () => {
    // 5 scenes of 7 s: paced at the limits (pauses of 0.15 s, the voice at 1.1) 32.4 s of narration,
    // which the assembly speeds up again to fit the 30 s video (cuts on the frames nearest the scenes' first words).
    const { output } = await render({ secondsPerScene: 7 });
    expect(output.scenes!.map((scene) => scene.startSeconds)).toEqual([0, 6, 12.04, 18.04, 24.07]);
    expect(output.scenes!.at(-1)!.durationSeconds).toBe(5.93);
  });

  it('re-voices only the scene whose narration changed and repaints nothing', async () => {
    const first = await render();
    const storyboard = storyboardOf(first.output);
    storyboard.scenes[1]!.narration = 'A new line for scene two';
    const { made, output } = await render({ storyboard });
    expect(made.voiced).toEqual(['A new line for scene two']);
    expect(made.painted).toEqual([]);
    expect(output.scenes![1]!.narration).toBe('A new line for scene two');
    // Scene 1's picture is the very file the first version used.
    expect(output.scenes![0]!.imagePath).toBe(first.output.scenes![0]!.imagePath);
  });

  it('re-renders for a caption style change without re-voicing or repainting', async () => {
    const first = await render();
    const { made } = await render({
      params: { ...baseParams, captionStyle: 'netflix', enableCaptions: true },
      storyboard: storyboardOf(first.output),
    });
    expect(made.voiced).toEqual([]);
    expect(made.painted).toEqual([]);
    expect(made.assembled).toHaveLength(1);
    expect(made.assembled[0]).toMatchObject({ captionStyle: 'netflix', enableCaptions: true });
  });

  it('paints only the regenerated scene, uses an uploaded picture as it is, and repaints nothing when scenes move', async () => {
    const first = await render();
    const storyboard = storyboardOf(first.output);
    storyboard.scenes[2]!.imageSeed = 777;
    const upload = join(root, 'upload.jpg');
    writeFileSync(upload, 'my own picture');
    storyboard.scenes[1]!.uploadedImage = { path: upload, contentHash: 'abc' };
    // Move scene 5 above scene 4.
    [storyboard.scenes[3], storyboard.scenes[4]] = [storyboard.scenes[4]!, storyboard.scenes[3]!];
    const { made, output } = await render({ storyboard });
    expect(made.painted).toEqual([777]);
    expect(made.voiced).toEqual([]);
    expect(output.scenes![1]!.imagePath).toBe(upload);
    expect(output.scenes![3]!.imagePath).toBe(first.output.scenes![4]!.imagePath);
  });

  it('asks a regenerated picture to pass over the subjects its scene showed before', async () => {
    const first = await render();
    const storyboard = storyboardOf(first.output);
    storyboard.scenes[0] = { ...storyboard.scenes[0]!, imageSeed: 4242, avoidSubjects: ['bicycle'] };
    const { made } = await render({ storyboard });
    expect(made.painted).toEqual([4242]);
    expect(made.avoided).toEqual([['bicycle']]);
  });

  it('re-voices every scene when the voice changes, and paints nothing', async () => {
    const first = await render();
    const { made } = await render({ params: { ...baseParams, voice: 'voice-b' }, storyboard: storyboardOf(first.output) });
    expect(made.voiced).toHaveLength(5);
    expect(made.painted).toEqual([]);
  });

  it('voices and paints a scene added after another, reusing the rest', async () => {
    const first = await render();
    const storyboard = storyboardOf(first.output);
    storyboard.scenes.splice(1, 0, { narration: 'An extra beat', imagePrompt: 'gulls', imageSeed: 4242 });
    const { made, output } = await render({ storyboard });
    expect(made.voiced).toEqual(['An extra beat']);
    expect(made.painted).toEqual([4242]);
    expect(output.scenes).toHaveLength(6);
  });
});
