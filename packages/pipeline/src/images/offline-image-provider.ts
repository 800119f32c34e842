import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { VISUAL_STYLES } from '@reelsmith/contracts';
import { throwIfAborted } from '../errors.js';
import type { ImageProvider, ImageRequest, ProviderHealthReport } from '../providers/types.js';
import { artworkImage, FLUENT_EMOJI_CREDIT } from './offline-image-artwork.js';
import { createRandom, seedFromText } from './offline-image-color.js';
import { paintScene, type SceneArtwork } from './offline-image-painter.js';
import { planScene } from './offline-image-plan.js';
import { chooseSceneSubjects } from './offline-image-subject-choice.js';

export type OfflineImageRequest = Omit<ImageRequest, 'outputPath'>;

const JPEG_QUALITY = 90;

export interface OfflinePicture {
  bytes: Buffer;
  /** What the picture shows, in English; null for a bare landscape. */
  subject: string | null;
  /** True when Fluent Emoji artwork is drawn in it (to be credited). */
  usesArtwork: boolean;
}

/**
 * Draws one picture: the scene's subjects (chosen from its narration and prompt, then the topic)
 * in their setting, the prompt's words choose the light and the landscape, the visual style chooses
 * the look, and prompt + scene index seed everything else, so a re-run gives the same bytes while
 * every scene of a story differs.
 */
export async function renderOfflineScene(request: OfflineImageRequest, format: 'jpeg' | 'png' = 'jpeg'): Promise<OfflinePicture> {
  const width = Math.max(16, Math.round(request.width));
  const height = Math.max(16, Math.round(request.height));
  const seed = seedFromText(`${request.sceneIndex}\u0000${request.prompt}`);
  const subjects = chooseSceneSubjects({
    prompt: request.prompt,
    ...(request.narration !== undefined ? { narration: request.narration } : {}),
    ...(request.topic !== undefined ? { topic: request.topic } : {}),
    ...(request.language !== undefined ? { language: request.language } : {}),
    ...(request.previousSubject !== undefined ? { previous: request.previousSubject } : {}),
    ...(request.avoidSubjects !== undefined ? { avoid: request.avoidSubjects } : {}),
    seed,
  });
  const random = createRandom(seed);
  const plan = planScene(request.prompt, request.visualStyle, random, subjects);
  const artwork: SceneArtwork = {
    main: subjects.main ? await artworkImage(subjects.main.id) : null,
    companions: await Promise.all(subjects.companions.map((companion) => artworkImage(companion.id))),
  };
  const canvas = paintScene(plan, width, height, random, artwork);
  const bytes = format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', JPEG_QUALITY);
  return { bytes, subject: subjects.name, usesArtwork: artwork.main !== null || artwork.companions.length > 0 };
}

export async function renderOfflineImage(request: OfflineImageRequest, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  return (await renderOfflineScene(request, format)).bytes;
}

export function createOfflineImageProvider(): ImageProvider {
  return {
    name: 'offline',
    async health(): Promise<ProviderHealthReport> {
      try {
        await renderOfflineImage({
          prompt: 'health check',
          visualStyle: 'cinematic',
          width: 16,
          height: 16,
          sceneIndex: 0,
          language: 'en',
        });
        return {
          name: 'offline',
          status: 'healthy',
          details: `Procedural artwork drawn locally in ${VISUAL_STYLES.length} visual styles, subjects from Fluent Emoji (MIT, Microsoft)`,
        };
      } catch (error) {
        return { name: 'offline', status: 'error', details: `The local image renderer failed: ${(error as Error).message}` };
      }
    },
    async generateImage(request: ImageRequest, signal?: AbortSignal) {
      throwIfAborted(signal);
      const png = extname(request.outputPath).toLowerCase() === '.png';
      const { bytes, subject, usesArtwork } = await renderOfflineScene(request, png ? 'png' : 'jpeg');
      throwIfAborted(signal);
      await mkdir(dirname(request.outputPath), { recursive: true });
      await writeFile(request.outputPath, bytes);
      return { imagePath: request.outputPath, ...(subject ? { subject } : {}), ...(usesArtwork ? { artwork: FLUENT_EMOJI_CREDIT } : {}) };
    },
  };
}
