import {
  MUSIC_MAX_SECONDS,
  STORYBOARD_MESSAGES as M,
  SVG_UPLOAD_MESSAGES,
  UPLOAD_AUDIO_MAX_BYTES,
  UPLOAD_IMAGE_MAX_BYTES,
  UPLOAD_IMAGE_MAX_PIXELS,
  type UploadKind,
} from '@reelsmith/contracts';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { badRequest } from '../errors.js';
import { looksLikeSvg, rasteriseSvgLogo } from './svg-logo.js';

/** Longest side a stored picture keeps: far above a 1080×1920 frame, small enough to cache cheaply. */
export const STORED_IMAGE_MAX_SIDE = 2160;
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

/**
 * The formats taken in, each read with one explicit ffmpeg demuxer chosen from the file's first
 * bytes (never its name or declared type): ffmpeg never guesses, so a playlist, a concat list or
 * any other format that opens further files is not read at all, and `-protocol_whitelist file`
 * keeps the one demuxer to the uploaded file.
 */
interface AcceptedFormat {
  kind: UploadKind;
  demuxer: string;
  codecs: RegExp;
  name: string;
}
const PNG: AcceptedFormat = { kind: 'image', demuxer: 'png_pipe', codecs: /^png$/, name: 'PNG' };
const JPEG: AcceptedFormat = { kind: 'image', demuxer: 'jpeg_pipe', codecs: /^mjpeg$/, name: 'JPEG' };
const WEBP: AcceptedFormat = { kind: 'image', demuxer: 'webp_pipe', codecs: /^webp$/, name: 'WebP' };
const MP3: AcceptedFormat = { kind: 'audio', demuxer: 'mp3', codecs: /^mp3$/, name: 'MP3' };
const WAV: AcceptedFormat = { kind: 'audio', demuxer: 'wav', codecs: /^pcm_/, name: 'WAV' };
const M4A: AcceptedFormat = { kind: 'audio', demuxer: 'mov', codecs: /^(aac|alac)$/, name: 'M4A' };
const AAC: AcceptedFormat = { kind: 'audio', demuxer: 'aac', codecs: /^aac$/, name: 'AAC' };

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString('latin1');

/** The accepted format the bytes start like; a known refused format's name; or null (unknown). */
export function sniffFormat(head: Buffer): AcceptedFormat | { refused: string } | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return PNG;
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return JPEG;
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return WEBP;
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return WAV;
  if (ascii(head, 4, 8) === 'ftyp') return M4A;
  if (ascii(head, 0, 3) === 'ID3') return MP3;
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0) return AAC;
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) return MP3;
  const text = ascii(head, 0, 16)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (text.startsWith('#EXTM3U') || text.startsWith('#EXT')) return { refused: 'Playlist (M3U/HLS)' };
  if (text.startsWith('ffconcat')) return { refused: 'Playlist (concat)' };
  if (ascii(head, 0, 4) === 'GIF8') return { refused: 'GIF' };
  if (ascii(head, 0, 2) === 'BM') return { refused: 'BMP' };
  if (ascii(head, 0, 4) === 'fLaC') return { refused: 'FLAC' };
  if (ascii(head, 0, 4) === 'OggS') return { refused: 'OGG' };
  return null;
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Reading options every ffprobe and ffmpeg call on an upload uses: the one demuxer, local file only. */
const readWith = (format: AcceptedFormat, path: string) => ['-protocol_whitelist', 'file', '-f', format.demuxer, '-i', path];

/**
 * Decodes the upload with ffmpeg and writes it out with `output` (its encoder options and path). -xerror
 * and an empty error log: any decoding problem (a truncated chunk, a bad checksum) refuses the file.
 */
async function reencodeStrictly(tools: MediaTools, format: AcceptedFormat, inputPath: string, output: readonly string[]): Promise<void> {
  const encoded = await run(
    tools.ffmpegPath,
    ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-xerror', ...readWith(format, inputPath), ...output],
    ENCODE_TIMEOUT_MS,
  );
  if (encoded.failed || encoded.stderr.trim() !== '') throw badRequest(M.uploadDamaged, 'file');
}

function run(command: string, args: string[], timeout: number): Promise<{ stdout: string; stderr: string; failed: boolean }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ stdout: String(stdout), stderr: String(stderr), failed: error !== null });
    });
  });
}

async function probe(tools: MediaTools, path: string, format?: AcceptedFormat): Promise<Probe | null> {
  const input = format ? readWith(format, path) : ['-protocol_whitelist', 'file', '-i', path];
  const result = await run(
    tools.ffprobePath,
    ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=format_name,duration', '-of', 'json', ...input],
    PROBE_TIMEOUT_MS,
  );
  if (result.failed) return null;
  try {
    return JSON.parse(result.stdout) as Probe;
  } catch {
    return null;
  }
}

async function hashFile(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/**
 * Checks an upload: its format from its first bytes, then a probe with that one demuxer (the
 * duration of a sound is refused above `maxAudioSeconds` before anything is decoded), then a decode
 * of the whole of it (a file cut short is refused, not half used), re-encoded to one plain format so
 * nothing of the original file but its pixels or samples reaches the renderer. An SVG, taken only
 * as a logo (`keepTransparency`), is checked and drawn to a PNG, which then goes the PNG's way.
 * Throws a 400 that says what is wrong.
 */
export async function prepareUpload(
  tools: MediaTools,
  inputPath: string,
  outputBase: string,
  options: { maxAudioSeconds?: number; keepTransparency?: boolean } = {},
): Promise<PreparedUpload> {
  const maxAudioSeconds = options.maxAudioSeconds ?? MUSIC_MAX_SECONDS;
  const { size } = await stat(inputPath);
  if (size === 0) throw badRequest(M.uploadEmpty, 'file');
  const head = await readHead(inputPath);
  if (looksLikeSvg(head)) {
    if (!options.keepTransparency) throw badRequest(SVG_UPLOAD_MESSAGES.notLogo, 'file');
    const raster = `${outputBase}-svg.png`;
    await rasteriseSvgLogo(inputPath, raster);
    return prepareUpload(tools, raster, outputBase, { keepTransparency: true });
  }
  const format = sniffFormat(head);
  if (format === null) throw badRequest(M.uploadUnreadable, 'file');
  if ('refused' in format) throw badRequest(M.uploadWrongFormat(format.refused), 'file');
  if (size > (format.kind === 'image' ? UPLOAD_IMAGE_MAX_BYTES : UPLOAD_AUDIO_MAX_BYTES))
    throw badRequest(format.kind === 'image' ? M.uploadImageTooLarge : M.uploadAudioTooLarge, 'file');
  const probed = await probe(tools, inputPath, format);
  const streams = probed?.streams ?? [];
  if (!probed) throw badRequest(format.kind === 'image' ? M.uploadDamaged : M.uploadUnreadable, 'file');

  if (format.kind === 'image') {
    const video = streams.find((stream) => stream.codec_type === 'video');
    if (!video || !format.codecs.test(video.codec_name ?? '')) throw badRequest(M.uploadDamaged, 'file');
    if (!video.width || !video.height) throw badRequest(M.uploadDamaged, 'file');
    const pixels = video.width * video.height;
    if (pixels > UPLOAD_IMAGE_MAX_PIXELS) throw badRequest(M.uploadTooManyPixels(pixels / 1_000_000), 'file');
    // A logo keeps its transparency (PNG with alpha); a scene picture covers the frame, so JPEG.
    const extension = options.keepTransparency ? 'png' : 'jpg';
    const path = `${outputBase}.${extension}`;
    const scale = `scale=w='min(${STORED_IMAGE_MAX_SIDE},iw)':h='min(${STORED_IMAGE_MAX_SIDE},ih)':force_original_aspect_ratio=decrease:flags=lanczos,scale=trunc(iw/2)*2:trunc(ih/2)*2`;
    await reencodeStrictly(tools, format, inputPath, [
      '-frames:v',
      '1',
      '-vf',
      scale,
      ...(options.keepTransparency ? ['-pix_fmt', 'rgba', '-f', 'image2', '-c:v', 'png'] : ['-q:v', '2', '-f', 'image2', '-c:v', 'mjpeg']),
      path,
    ]);
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

  const audio = streams.find((stream) => stream.codec_type === 'audio');
  if (!audio) throw badRequest(M.uploadUnreadable, 'file');
  if (!format.codecs.test(audio.codec_name ?? ''))
    throw badRequest(M.uploadWrongFormat(`${format.name} with ${(audio.codec_name ?? 'unknown').toUpperCase()}`), 'file');
  // Measured before decoding: a long, low-bitrate file would cost minutes of ffmpeg for a track no video uses.
  const probedSeconds = Number(probed.format?.duration ?? NaN);
  if (Number.isFinite(probedSeconds) && probedSeconds > maxAudioSeconds)
    throw badRequest(M.uploadAudioTooLong(probedSeconds, maxAudioSeconds), 'file');
  const path = `${outputBase}.m4a`;
  // -t: a header that understates the length still yields no more than the limit.
  await reencodeStrictly(tools, format, inputPath, [
    ...['-vn', '-map_metadata', '-1', '-t', String(maxAudioSeconds)],
    ...['-c:a', 'aac', '-b:a', '192k', '-ar', '48000', '-ac', '2', '-f', 'mp4', path],
  ]);
  const stored = await probe(tools, path);
  const durationSeconds = Number(stored?.format?.duration ?? NaN);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) throw badRequest(M.uploadDamaged, 'file');
  return {
    kind: 'audio',
    path,
    extension: 'm4a',
    contentHash: await hashFile(path),
    sizeBytes: (await stat(path)).size,
    durationSeconds: Math.round(durationSeconds * 100) / 100,
  };
}
