import { accessSync, constants } from 'node:fs';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/** Which ffmpeg/ffprobe the pipeline runs and where each came from (shown by the CLI and health checks). */
export interface FfmpegBinaries {
  ffmpegPath: string;
  ffmpegSource: 'env' | 'system' | 'bundled';
  /** null when no ffprobe exists: durations are then read from ffmpeg's own output. */
  ffprobePath: string | null;
  ffprobeSource?: 'env' | 'system' | 'bundled' | null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findOnPath(command: string, pathVariable = process.env.PATH ?? ''): string | null {
  for (const dir of pathVariable.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The binary a `@ffmpeg-installer`-style package ships inside itself (nothing is downloaded at install). */
function bundledBinary(packageName: string): string | null {
  try {
    const require = createRequire(import.meta.url);
    const installer = require(packageName) as { path?: string };
    return installer.path && isExecutable(installer.path) ? installer.path : null;
  } catch {
    return null;
  }
}

export interface BinaryOverrides {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
}

/**
 * FFMPEG_PATH wins, then the system ffmpeg (newer, faster filters), then the static 4.1 build that
 * ships inside @ffmpeg-installer/ffmpeg so a machine without ffmpeg still renders (the newest static
 * ffmpeg an npm package carries inside itself: ffmpeg-static and ffmpeg-ffprobe-static download at
 * install time, ffmpeg-static-electron carries 3.1). ffprobe likewise: FFPROBE_PATH, the system's,
 * then @ffprobe-installer/ffprobe's static build.
 */
export function resolveFfmpegBinaries(overrides: BinaryOverrides = {}, env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  const searchPath = env.PATH ?? '';
  const ffmpeg = locateBinary('ffmpeg', overrides.ffmpegPath ?? env.FFMPEG_PATH, 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg', searchPath);
  if (!ffmpeg) throw new Error('ffmpeg was not found. Install ffmpeg (e.g. apt-get install ffmpeg) or set FFMPEG_PATH.');
  const ffprobe = locateBinary(
    'ffprobe',
    overrides.ffprobePath ?? env.FFPROBE_PATH,
    'FFPROBE_PATH',
    '@ffprobe-installer/ffprobe',
    searchPath,
  );
  return {
    ffmpegPath: ffmpeg.path,
    ffmpegSource: ffmpeg.source,
    ffprobePath: ffprobe?.path ?? null,
    ffprobeSource: ffprobe?.source ?? null,
  };
}

/** A binary at its explicit path (which must be executable), else on PATH, else the bundled package's; null: none. */
function locateBinary(
  name: string,
  explicit: string | undefined,
  variable: string,
  bundledPackage: string,
  searchPath: string,
): { path: string; source: 'env' | 'system' | 'bundled' } | null {
  if (explicit) {
    if (!isExecutable(explicit)) {
      throw new Error(`${variable} points to ${explicit}, which is not an executable file. Fix the path or unset ${variable}.`);
    }
    return { path: explicit, source: 'env' };
  }
  const system = findOnPath(name, searchPath);
  if (system) return { path: system, source: 'system' };
  const bundled = bundledBinary(bundledPackage);
  return bundled ? { path: bundled, source: 'bundled' } : null;
}

let cached: FfmpegBinaries | undefined;
/** Resolved once per process from the environment. */
export function defaultFfmpegBinaries(): FfmpegBinaries {
  cached ??= resolveFfmpegBinaries();
  return cached;
}

export class MissingFfmpegFilterError extends Error {
  constructor(
    readonly ffmpegPath: string,
    readonly filters: string[],
  ) {
    super(
      `${ffmpegPath} has no ${filters.map((name) => `'${name}'`).join(', ')} filter (built without it). ` +
        `Install an ffmpeg built with libass (Debian's ffmpeg package) or point FFMPEG_PATH at one.`,
    );
    this.name = 'MissingFfmpegFilterError';
  }
}

const versions = new Map<string, Promise<string>>();

/** The version an ffmpeg binary reports ("4.1", "5.1.6-0+deb12u1"; "unknown version" when it says none), asked once per binary. */
export function ffmpegVersion(ffmpegPath: string): Promise<string> {
  let pending = versions.get(ffmpegPath);
  if (!pending) {
    pending = new Promise<string>((resolve) => {
      execFile(ffmpegPath, ['-hide_banner', '-version'], { maxBuffer: 1 << 20 }, (error, stdout) => {
        resolve(/version\s+(\S+)/.exec(stdout)?.[1] ?? 'unknown version');
      });
    });
    versions.set(ffmpegPath, pending);
  }
  return pending;
}

const filterLists = new Map<string, Promise<Set<string>>>();

/** The filter names an ffmpeg binary was built with (asked once per binary). */
export function ffmpegFilters(ffmpegPath: string): Promise<Set<string>> {
  let pending = filterLists.get(ffmpegPath);
  if (!pending) {
    pending = new Promise<Set<string>>((resolve) => {
      execFile(ffmpegPath, ['-hide_banner', '-filters'], { maxBuffer: 1 << 22 }, (error, stdout) => {
        // A binary that cannot list its filters is reported by the render itself, with ffmpeg's own words.
        if (error) return resolve(new Set());
        resolve(
          new Set(
            stdout
              .split('\n')
              .map((line) => /^\s*[A-Z.|]{3}\s+(\S+)\s/.exec(line)?.[1])
              .filter((name): name is string => !!name),
          ),
        );
      });
    });
    filterLists.set(ffmpegPath, pending);
  }
  return pending;
}

/** Fails before the render when the binary lacks a filter the render needs, naming it. */
export async function requireFfmpegFilters(ffmpegPath: string, names: string[]): Promise<void> {
  const available = await ffmpegFilters(ffmpegPath);
  if (available.size === 0) return;
  const missing = names.filter((name) => !available.has(name));
  if (missing.length > 0) throw new MissingFfmpegFilterError(ffmpegPath, missing);
}
