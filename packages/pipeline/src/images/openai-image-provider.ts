import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ProviderError, throwIfAborted } from '../errors.js';
import {
  classifyOpenAiError,
  openAiJsonPost,
  openAiModelsHealth,
  type OpenAiCompatibleConnection,
} from '../providers/http-openai-compatible.js';
import { parseJsonBody, requestWithRetry, type ProviderErrorDetails } from '../providers/http.js';
import type { ImageProvider, ImageRequest, ImageResult } from '../providers/types.js';
import { NO_TEXT_IN_IMAGE, VISUAL_STYLE_GUIDANCE } from './openai-image-style.js';
import { keyNoun } from './prompt-subject.js';

export interface OpenAiImageProviderOptions extends OpenAiCompatibleConnection {
  /** Default gpt-image-1. */
  model?: string;
  /** Passed through when set (gpt-image: low | medium | high | auto; dall-e-3: standard | hd). */
  quality?: string;
}

const PROVIDER = 'openai';
const CONTENT_POLICY_CODES = new Set(['content_policy_violation', 'moderation_blocked']);
export const CONTENT_POLICY_MESSAGE = "The image service refused this scene's picture (content policy). Try rephrasing the topic.";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Size = `${number}x${number}`;

/** Sizes each model family accepts, so the picture is generated as close to the video's frame as possible. */
function supportedSizes(model: string): Size[] {
  if (model.startsWith('dall-e-3')) return ['1024x1024', '1024x1792', '1792x1024'];
  if (model.startsWith('dall-e-2')) return ['1024x1024'];
  return ['1024x1024', '1024x1536', '1536x1024'];
}

/** The supported size whose aspect ratio is nearest to width:height (compared on a log scale). */
export function nearestSize(model: string, width: number, height: number): Size {
  const wanted = Math.log(width / height);
  let best: Size = '1024x1024';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const size of supportedSizes(model)) {
    const [w, h] = size.split('x').map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - wanted);
    if (distance < bestDistance) {
      best = size;
      bestDistance = distance;
    }
  }
  return best;
}

export function imagePrompt(request: ImageRequest): string {
  return `${request.prompt.trim()}\n\nVisual style: ${request.visualStyle} — ${VISUAL_STYLE_GUIDANCE[request.visualStyle]}. ${NO_TEXT_IN_IMAGE}.`;
}

/**
 * Scene pictures from an OpenAI-compatible images API (POST {baseUrl}/images/generations). Writes a
 * PNG at the request's path; assembly scales and crops it to the frame.
 */
export function createOpenAiImageProvider(options: OpenAiImageProviderOptions): ImageProvider {
  const model = options.model ?? 'gpt-image-1';
  const secrets = options.apiKey ? [options.apiKey] : [];
  const common = {
    provider: PROVIDER,
    service: 'image' as const,
    fetch: options.fetch,
    retryDelaysMs: options.retryDelaysMs,
    secrets,
  };

  return {
    name: PROVIDER,

    async generateImage(request: ImageRequest, signal?: AbortSignal): Promise<ImageResult> {
      throwIfAborted(signal);
      const body: Record<string, unknown> = {
        model,
        prompt: imagePrompt(request),
        size: nearestSize(model, request.width, request.height),
        n: 1,
      };
      // gpt-image models always answer in base64 and reject response_format; DALL·E defaults to URLs.
      if (model.startsWith('dall-e')) body.response_format = 'b64_json';
      if (options.quality) body.quality = options.quality;

      const result = await requestWithRetry({
        ...common,
        ...openAiJsonPost(options, 'images/generations'),
        body: JSON.stringify(body),
        signal,
        timeoutMs: options.timeoutMs ?? 240_000,
        classifyError: classifyImageError,
      });
      const response = parseJsonBody(result, PROVIDER, 'image') as { data?: Array<{ b64_json?: unknown; url?: unknown }> };
      const first = response.data?.[0];
      let bytes: Buffer;
      if (typeof first?.b64_json === 'string' && first.b64_json.length > 0) {
        bytes = Buffer.from(first.b64_json, 'base64');
      } else if (typeof first?.url === 'string' && first.url.length > 0) {
        // The URL is a signed CDN link: it must not receive the API key.
        const download = await requestWithRetry({ ...common, url: first.url, signal, timeoutMs: 60_000 });
        bytes = download.body;
      } else {
        throw new ProviderError('The image service sent no picture; try again later', PROVIDER, true, result.status);
      }

      const png = await toPng(bytes);
      await mkdir(dirname(request.outputPath), { recursive: true });
      await writeFile(request.outputPath, png);
      const subject = keyNoun(request.prompt);
      return { imagePath: request.outputPath, ...(subject ? { subject } : {}) };
    },

    health(signal?: AbortSignal) {
      return openAiModelsHealth(PROVIDER, 'image', options, model, signal);
    },
  };
}

function classifyImageError(status: number, details: ProviderErrorDetails): ProviderError | undefined {
  if (status === 400 && details.code && CONTENT_POLICY_CODES.has(details.code)) {
    return new ProviderError(CONTENT_POLICY_MESSAGE, PROVIDER, false, status);
  }
  return classifyOpenAiError(PROVIDER, 'image')(status, details);
}

/** Compatible servers may answer in JPEG or WebP; the pipeline promises a PNG. */
async function toPng(bytes: Buffer): Promise<Buffer> {
  if (bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return bytes;
  try {
    const image = await loadImage(bytes);
    const canvas = createCanvas(image.width, image.height);
    canvas.getContext('2d').drawImage(image, 0, 0);
    return await canvas.encode('png');
  } catch (error) {
    throw new ProviderError('The image service sent something that is not a picture; try again later', PROVIDER, true, undefined, {
      cause: error,
    });
  }
}
