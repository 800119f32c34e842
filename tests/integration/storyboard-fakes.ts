import type { assembleVideo } from '@reelsmith/pipeline';
import { resolveFfmpegBinaries } from '@reelsmith/pipeline';
import { runFfmpeg } from '@reelsmith/pipeline';
import { CancelledError, ProviderError } from '@reelsmith/pipeline';
import type { Providers } from '@reelsmith/pipeline';
import { writeFileSync } from 'node:fs';

const binaries = resolveFfmpegBinaries();

/** Providers that write real (short) audio and tiny pictures, recording what they voiced and painted. */
export interface Counts {
  voiced: string[];
  painted: number[];
  /** Narration that makes the voice wait for this promise (a render to cancel mid-way). */
  hold?: { text: string; reached: () => void; until: Promise<void> };
  /** Narration the voice refuses with this provider error. */
  failOn?: string;
}

export function fakeStoryboardProviders(counts: Counts): Providers {
  return {
    story: {
      name: 'fake-story',
      health: async () => ({ name: 'fake-story', status: 'healthy', details: '' }),
      writeStory: async (request) => ({
        title: 'Octopus hearts',
        scenes: Array.from({ length: request.sceneCount }, (_, i) => ({
          narration: `Scene ${i + 1} tells its part`,
          imagePrompt: `reef ${i + 1}`,
        })),
      }),
    },
    voice: {
      name: 'fake-voice',
      wordsPerMinute: 160,
      health: async () => ({ name: 'fake-voice', status: 'healthy', details: '' }),
      synthesize: async (request, signal) => {
        counts.voiced.push(request.text);
        if (counts.failOn === request.text) throw new ProviderError('The voice service refused this line', 'fake-voice', false, 400);
        if (counts.hold?.text === request.text) {
          counts.hold.reached();
          await Promise.race([
            counts.hold.until,
            new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true })),
          ]);
        }
        await runFfmpeg(binaries.ffmpegPath, ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '22050', request.outputPath], {
          signal,
        });
        return {
          audioPath: request.outputPath,
          durationSeconds: 1,
          words: request.text.split(' ').map((word, i) => ({ word, start: i * 0.2, end: i * 0.2 + 0.15 })),
        };
      },
    },
    images: {
      name: 'fake-images',
      health: async () => ({ name: 'fake-images', status: 'healthy', details: '' }),
      generateImage: async (request) => {
        counts.painted.push(request.sceneIndex);
        writeFileSync(request.outputPath, `picture ${request.prompt} ${request.sceneIndex}`);
        return { imagePath: request.outputPath };
      },
    },
  };
}

export const quickAssemble: typeof assembleVideo = async (request) => {
  writeFileSync(request.outputPath, 'mp4 bytes');
  writeFileSync(request.posterPath, 'jpg bytes');
  return {
    videoPath: request.outputPath,
    posterPath: request.posterPath,
    durationSeconds: 30,
    width: 1080,
    height: 1920,
    sizeBytes: 9,
    renderStats: { seconds: 0.1, segmentsRendered: request.scenes.length, segmentsReused: 0 },
  };
};
