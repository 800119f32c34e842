import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/** Which ffmpeg/ffprobe the pipeline runs and where each came from (shown by the CLI and health checks). */
export interface FfmpegBinaries {
  ffmpegPath: string;
  ffmpegSource: 'env' | 'system' | 'bundled';
  /** null when no ffprobe exists: durations are then read from ffmpeg's own output. */
  ffprobePath: string | null;
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

function bundledFfmpeg(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const installer = require('@ffmpeg-installer/ffmpeg') as { path?: string };
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
 * ships inside @ffmpeg-installer/ffmpeg so a machine without ffmpeg still renders.
 */
export function resolveFfmpegBinaries(overrides: BinaryOverrides = {}, env: NodeJS.ProcessEnv = process.env): FfmpegBinaries {
  const explicitFfmpeg = overrides.ffmpegPath ?? env.FFMPEG_PATH;
  let ffmpegPath: string;
  let ffmpegSource: FfmpegBinaries['ffmpegSource'];
  if (explicitFfmpeg) {
    if (!isExecutable(explicitFfmpeg)) {
      throw new Error(`FFMPEG_PATH points to ${explicitFfmpeg}, which is not an executable file. Fix the path or unset FFMPEG_PATH.`);
    }
    ffmpegPath = explicitFfmpeg;
    ffmpegSource = 'env';
  } else {
    const system = findOnPath('ffmpeg', env.PATH);
    const bundled = system ? null : bundledFfmpeg();
    if (system) {
      ffmpegPath = system;
      ffmpegSource = 'system';
    } else if (bundled) {
      ffmpegPath = bundled;
      ffmpegSource = 'bundled';
    } else {
      throw new Error('ffmpeg was not found. Install ffmpeg (e.g. apt-get install ffmpeg) or set FFMPEG_PATH.');
    }
  }
  const explicitProbe = overrides.ffprobePath ?? env.FFPROBE_PATH;
  let ffprobePath: string | null = null;
  if (explicitProbe) {
    if (!isExecutable(explicitProbe)) {
      throw new Error(`FFPROBE_PATH points to ${explicitProbe}, which is not an executable file. Fix the path or unset FFPROBE_PATH.`);
    }
    ffprobePath = explicitProbe;
  } else {
    ffprobePath = findOnPath('ffprobe', env.PATH);
  }
  return { ffmpegPath, ffmpegSource, ffprobePath };
}

let cached: FfmpegBinaries | undefined;
/** Resolved once per process from the environment. */
export function defaultFfmpegBinaries(): FfmpegBinaries {
  cached ??= resolveFfmpegBinaries();
  return cached;
}
