import type { CaptionTrack } from '@reelsmith/pipeline';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { ObjectStorage } from '../storage/object-storage.js';

/** URL prefix the output directory is served under. */
export const OUTPUT_URL_PREFIX = '/output';
const MAX_SLUG_LENGTH = 60;
const FALLBACK_SLUG = 'reelsmith-video';

/**
 * 'Why Octopuses Have 3 Hearts!' → 'why-octopuses-have-3-hearts'. Accents are folded to ASCII so the
 * name is safe in a URL and in every file system; a title with no Latin letters (Hindi, Japanese)
 * falls back to a generic name.
 */
export function slugifyTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, '');
  return slug || FALLBACK_SLUG;
}

/** 128 random bits: the directory name is what keeps a video's URL unguessable. */
export const newOutputToken = (): string => randomBytes(16).toString('hex');
export const isOutputToken = (value: string): boolean => /^[0-9a-f]{32}$/.test(value);

export interface PublishedOutput {
  token: string;
  filename: string;
  posterFilename: string;
  videoUrl: string;
  posterUrl: string;
  /** Video plus poster. */
  sizeBytes: number;
  videoBytes: number;
}

/** The caption track stored beside a version's video: `<slug>.mp4` → `<slug>.captions.json`. */
export const captionTrackFilename = (videoFilename: string): string => videoFilename.replace(/\.mp4$/i, '') + '.captions.json';

/** Storage key of a published file: `output/<token>/<file>`, served as `/output/<token>/<file>`. */
export const outputKey = (token: string, filename: string): string => `output/${token}/${filename}`;
/** Storage prefix holding all of one job's published files. */
export const outputPrefix = (token: string): string => `output/${token}/`;

/**
 * Moves a finished job's video and poster out of its workspace into storage as
 * `output/<token>/<slug>.mp4` and `.jpg` (DATA_DIR/output locally, the bucket with S3), returning
 * their public URLs. On any failure nothing is left behind; `signal` aborts an upload in flight.
 */
export async function publishOutput(
  storage: ObjectStorage,
  files: { videoPath: string; posterPath: string; title: string; captionTrack?: CaptionTrack | undefined },
  signal?: AbortSignal,
  /** Appended to the file names after the slug (e.g. '-v2'), so it survives the slug's length limit. */
  nameSuffix = '',
): Promise<PublishedOutput> {
  const token = newOutputToken();
  const slug = `${slugifyTitle(files.title)}${nameSuffix}`;
  const filename = `${slug}.mp4`;
  const posterFilename = `${slug}.jpg`;
  try {
    const video = await storage.put(outputKey(token, filename), files.videoPath, { contentType: 'video/mp4', signal });
    const poster = await storage.put(outputKey(token, posterFilename), files.posterPath, { contentType: 'image/jpeg', signal });
    if (files.captionTrack) {
      // What the caption files (SubRip, WebVTT) of this version are made from, kept beside its video.
      const trackPath = `${files.videoPath}.captions.json`;
      await writeFile(trackPath, JSON.stringify(files.captionTrack));
      await storage.put(outputKey(token, captionTrackFilename(filename)), trackPath, { contentType: 'application/json', signal });
    }
    return {
      token,
      filename,
      posterFilename,
      videoUrl: `${OUTPUT_URL_PREFIX}/${token}/${filename}`,
      posterUrl: `${OUTPUT_URL_PREFIX}/${token}/${posterFilename}`,
      sizeBytes: video.sizeBytes + poster.sizeBytes,
      videoBytes: video.sizeBytes,
    };
  } catch (error) {
    await storage.delete(outputPrefix(token)).catch(() => undefined);
    throw error;
  }
}

/** Deletes a job's published files; a token that is not one of ours is ignored rather than trusted as a path. */
export async function removeOutput(storage: ObjectStorage, token: string | null): Promise<void> {
  if (!token || !isOutputToken(token)) return;
  await storage.delete(outputPrefix(token));
}
