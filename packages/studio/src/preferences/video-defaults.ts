import {
  DEFAULT_DURATION,
  DEFAULT_RESOLUTION,
  DEFAULT_VISUAL_STYLE,
  durationSchema,
  type Resolution,
  resolutionSchema,
  SETTINGS_STORY_STYLES,
  STORAGE_KEYS,
  videoLanguageSchema,
  visualStyleSchema,
} from '@reelsmith/contracts';
import * as z from 'zod/mini';
import type { KeyValueStorage } from '../platform.js';

/**
 * Resolution labels, shared by the studio form and the Video Defaults settings so both read alike.
 */
export const RESOLUTION_LABELS: Record<Resolution, string> = {
  '9:16': '9:16 · Vertical',
  '16:9': '16:9 · Landscape',
  '1:1': '1:1 · Square',
};

/**
 * Local video defaults (stored under the key videoDefaults). Each field falls back
 * to its default on its own, so a stored value from an older version or edited by hand never
 * discards the rest.
 */
export const videoDefaultsSchema = z.object({
  defaultStyle: z.catch(z.enum(SETTINGS_STORY_STYLES), 'mysterious'),
  defaultLanguage: z.catch(videoLanguageSchema, 'en'),
  defaultDuration: z.catch(durationSchema, DEFAULT_DURATION),
  defaultVisualStyle: z.catch(visualStyleSchema, DEFAULT_VISUAL_STYLE),
  defaultResolution: z.catch(resolutionSchema, DEFAULT_RESOLUTION),
  autoDownload: z.catch(z.boolean(), false),
  showProgress: z.catch(z.boolean(), true),
});
export type VideoDefaults = z.infer<typeof videoDefaultsSchema>;

export const INITIAL_VIDEO_DEFAULTS: VideoDefaults = videoDefaultsSchema.parse({});

/** Reads the stored defaults; unknown or damaged values fall back one field at a time. */
export function loadVideoDefaults(storage: KeyValueStorage): VideoDefaults {
  const raw = storage.getItem(STORAGE_KEYS.videoDefaults);
  if (!raw) return INITIAL_VIDEO_DEFAULTS;
  try {
    const parsed: unknown = JSON.parse(raw);
    return videoDefaultsSchema.parse(typeof parsed === 'object' && parsed !== null ? parsed : {});
  } catch {
    return INITIAL_VIDEO_DEFAULTS;
  }
}

export function saveVideoDefaults(storage: KeyValueStorage, defaults: VideoDefaults): void {
  storage.setItem(STORAGE_KEYS.videoDefaults, JSON.stringify(videoDefaultsSchema.parse(defaults)));
}
