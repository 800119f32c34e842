import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { VISUAL_STYLES } from '@reelsmith/contracts';
import { throwIfAborted } from '../errors.js';
import type { ImageProvider, ImageRequest, ProviderHealthReport } from '../providers/types.js';
import { createRandom, seedFromText } from './offline-image-color.js';
import { paintScene } from './offline-image-painter.js';
import { planScene } from './offline-image-plan.js';

export type OfflineImageRequest = Omit<ImageRequest, 'outputPath'>;

const JPEG_QUALITY = 90;

/**
 * Draws one picture: the topic's subject (offline-image-motifs) in its setting, the prompt's words
 * choose the light and the landscape, the visual style chooses the look, and prompt + scene index seed everything else, so a re-run gives the same
 * bytes while every scene of a story differs.
 */
export async function renderOfflineImage(request: OfflineImageRequest, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const width = Math.max(16, Math.round(request.width));
  const height = Math.max(16, Math.round(request.height));
  const random = createRandom(seedFromText(`${request.sceneIndex}\u0000${request.prompt}`));
  const plan = planScene(request.prompt, request.visualStyle, random, request.topic);
  const canvas = paintScene(plan, width, height, random);
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', JPEG_QUALITY);
}

export function createOfflineImageProvider(): ImageProvider {
  return {
    name: 'offline',
    async health(): Promise<ProviderHealthReport> {
      try {
        await renderOfflineImage({ prompt: 'health check', visualStyle: 'cinematic', width: 16, height: 16, sceneIndex: 0 });
        return { name: 'offline', status: 'healthy', details: `Procedural artwork drawn locally in ${VISUAL_STYLES.length} visual styles` };
      } catch (error) {
        return { name: 'offline', status: 'error', details: `The local image renderer failed: ${(error as Error).message}` };
      }
    },
    async generateImage(request: ImageRequest, signal?: AbortSignal) {
      throwIfAborted(signal);
      const png = extname(request.outputPath).toLowerCase() === '.png';
      const bytes = await renderOfflineImage(request, png ? 'png' : 'jpeg');
      throwIfAborted(signal);
      await mkdir(dirname(request.outputPath), { recursive: true });
      await writeFile(request.outputPath, bytes);
      return { imagePath: request.outputPath };
    },
  };
}
