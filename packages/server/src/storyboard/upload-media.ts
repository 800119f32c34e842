import { STORYBOARD_MESSAGES as M, UPLOAD_AUDIO_MAX_BYTES, UPLOAD_IMAGE_MAX_BYTES, UPLOAD_IMAGE_MAX_PIXELS, type UploadKind } from '@reelsmith/contracts';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { badRequest } from '../errors.js';

/** Longest side a stored picture keeps: far above a 1080×1920 frame, small enough to cache cheaply. */
export const STORED_IMAGE_MAX_SIDE = 2160;
/** A background track longer than this is refused: no video is longer than 90 s. */
export const MUSIC_MAX_SECONDS = 15 * 60;
const PROBE_TIMEOUT_MS = 30_000;
const ENCODE_TIMEOUT_MS = 120_000;

export interface MediaTools {
  ffmpegPath: string;
  ffprobePath: string;
}

export interface PreparedUpload {
  kind: UploadKind;
  /** The re-encoded file (JPEG for pictures, PNG for a logo, AAC in M4A for sound). */
  path: string;
  extension: 'jpg' | 'png' | 'm4a';
  contentHash: string;
  sizeBytes: number;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
}

interface Probe {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

/** Containers and codecs taken in: the format is read from the bytes, never from the name or declared type. */
const IMAGE_CODECS: Record<string, string> = { png: 'PNG', mjpeg: 'JPEG', webp: 'WebP' };
const AUDIO_FORMATS: Array<{ format: RegExp; codecs: RegExp; name: string }> = [
  { format: /^mp3$/, codecs: /^mp3$/, name: 'MP3' },
  { format: /^wav$/, codecs: /^pcm_/, name: 'WAV' },
  { format: /(^|,)(mov|mp4|m4a)(,|$)/, codecs: /^(aac|alac)$/, name: 'M4A' },
];

function run(command: string, args: string[], timeout: number): Promise<{ stdout: string; stderr: string; failed: boolean }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ stdout: String(stdout), stderr: String(stderr), failed: error !== null });
    });
  });
}

async function probe(tools: MediaTools, path: string): Promise<Probe | null> {
  const result = await run(tools.ffprobePath, ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=format_name,duration', '-of', 'json', path], PROBE_TIMEOUT_MS);
  if (result.failed) return null;
  try {
    return JSON.parse(result.stdout) as Probe;
  } catch {
    return null;
  }
}

async function hashFile(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/**
 * Checks an upload by decoding it (the whole of it: a file cut short is refused, not half used) and
 * re-encodes it to one plain format, so nothing of the original file but its pixels or samples
 * reaches the renderer. Throws a 400 that says what is wrong.
 */
export async function prepareUpload(tools: MediaTools, inputPath: string, outputBase: string, options: { keepTransparency?: boolean } = {}): Promise<PreparedUpload> {
  const { size } = await stat(inputPath);
  if (size === 0) throw badRequest(M.uploadEmpty, 'file');
  const probed = await probe(tools, inputPath);
  const streams = probed?.streams ?? [];
  const formatName = probed?.format?.format_name ?? '';
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');

  if (video && !audio) {
    const codec = video.codec_name ?? '';
    if (!IMAGE_CODECS[codec]) throw badRequest(codec ? M.uploadWrongFormat(codec.toUpperCase()) : M.uploadUnreadable, 'file');
    if (!video.width || !video.height) throw badRequest(M.uploadDamaged, 'file');
    if (size > UPLOAD_IMAGE_MAX_BYTES) throw badRequest(M.uploadImageTooLarge, 'file');
    const pixels = video.width * video.height;
    if (pixels > UPLOAD_IMAGE_MAX_PIXELS) throw badRequest(M.uploadTooManyPixels(pixels / 1_000_000), 'file');
    // A logo keeps its transparency (PNG with alpha); a scene picture covers the frame, so JPEG.
    const extension = options.keepTransparency ? 'png' : 'jpg';
    const path = `${outputBase}.${extension}`;
    const scale = `scale=w='min(${STORED_IMAGE_MAX_SIDE},iw)':h='min(${STORED_IMAGE_MAX_SIDE},ih)':force_original_aspect_ratio=decrease:flags=lanczos,scale=trunc(iw/2)*2:trunc(ih/2)*2`;
    // -xerror and an empty error log: any decoding problem (a truncated chunk, a bad checksum) refuses the file.
    const encoded = await run(
      tools.ffmpegPath,
      [
        '-hide_banner', '-nostdin', '-y', '-v', 'error', '-xerror', '-i', inputPath, '-frames:v', '1', '-vf', scale,
        ...(options.keepTransparency ? ['-pix_fmt', 'rgba', '-f', 'image2', '-c:v', 'png'] : ['-q:v', '2', '-f', 'image2', '-c:v', 'mjpeg']),
        path,
      ],
      ENCODE_TIMEOUT_MS,
    );
    if (encoded.failed || encoded.stderr.trim() !== '') throw badRequest(M.uploadDamaged, 'file');
    const stored = await probe(tools, path);
    const storedVideo = stored?.streams?.find((stream) => stream.codec_type === 'video');
    return {
      kind: 'image',
      path,
      extension,
      contentHash: await hashFile(path),
      sizeBytes: (await stat(path)).size,
      width: storedVideo?.width ?? video.width,
      height: storedVideo?.height ?? video.height,
    };
  }

  if (audio) {
    const codec = audio.codec_name ?? '';
    const known = AUDIO_FORMATS.find((entry) => entry.format.test(formatName) && entry.codecs.test(codec));
    if (!known) throw badRequest(M.uploadWrongFormat((codec || formatName || 'These').toUpperCase()), 'file');
    if (size > UPLOAD_AUDIO_MAX_BYTES) throw badRequest(M.uploadAudioTooLarge, 'file');
    const path = `${outputBase}.m4a`;
    const encoded = await run(
      tools.ffmpegPath,
      ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-xerror', '-i', inputPath, '-vn', '-map_metadata', '-1', '-t', String(MUSIC_MAX_SECONDS), '-c:a', 'aac', '-b:a', '192k', '-ar', '48000', '-ac', '2', '-f', 'mp4', path],
      ENCODE_TIMEOUT_MS,
    );
    if (encoded.failed || encoded.stderr.trim() !== '') throw badRequest(M.uploadDamaged, 'file');
    const stored = await probe(tools, path);
    const durationSeconds = Number(stored?.format?.duration ?? NaN);
    if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) throw badRequest(M.uploadDamaged, 'file');
    return { kind: 'audio', path, extension: 'm4a', contentHash: await hashFile(path), sizeBytes: (await stat(path)).size, durationSeconds: Math.round(durationSeconds * 100) / 100 };
  }

  throw badRequest(M.uploadUnreadable, 'file');
}
