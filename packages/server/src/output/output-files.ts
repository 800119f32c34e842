import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

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

/** rename, or copy + unlink when the workspace sits on another file system. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}

/**
 * Moves a finished job's video and poster out of its workspace into
 * `outputDir/<token>/<slug>.mp4` and `.jpg`, returning their public URLs.
 */
export async function publishOutput(
  outputDir: string,
  files: { videoPath: string; posterPath: string; title: string },
  /** Appended to the file names after the slug (e.g. '-v2'), so it survives the slug's length limit. */
  nameSuffix = '',
): Promise<PublishedOutput> {
  const token = newOutputToken();
  const slug = `${slugifyTitle(files.title)}${nameSuffix}`;
  const filename = `${slug}.mp4`;
  const posterFilename = `${slug}.jpg`;
  const dir = join(outputDir, token);
  await mkdir(dir, { recursive: true });
  try {
    await moveFile(files.videoPath, join(dir, filename));
    await moveFile(files.posterPath, join(dir, posterFilename));
    const [video, poster] = await Promise.all([stat(join(dir, filename)), stat(join(dir, posterFilename))]);
    return {
      token,
      filename,
      posterFilename,
      videoUrl: `${OUTPUT_URL_PREFIX}/${token}/${filename}`,
      posterUrl: `${OUTPUT_URL_PREFIX}/${token}/${posterFilename}`,
      sizeBytes: video.size + poster.size,
      videoBytes: video.size,
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Deletes a job's published files; a token that is not one of ours is ignored rather than trusted as a path. */
export async function removeOutput(outputDir: string, token: string | null): Promise<void> {
  if (!token || !isOutputToken(token)) return;
  await rm(join(outputDir, token), { recursive: true, force: true });
}
