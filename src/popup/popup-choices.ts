import { resolutionSchema, videoLanguageSchema, type Resolution } from '@reelsmith/contracts';
import type { KeyValueStorage } from '@reelsmith/studio/popup';
import * as z from 'zod/mini';

/** The popup's own key: its last Language, Resolution and Captions choice, separate from Settings' Video Defaults. */
export const POPUP_CHOICES_KEY = 'reelsmith-popup-choices';

/** What the popup remembers between openings; captions start on (popup videos are watched muted). */
const popupChoicesSchema = z.object({
  language: z.catch(z.optional(videoLanguageSchema), undefined),
  resolution: z.catch(z.optional(resolutionSchema), undefined),
  enableCaptions: z._default(z.catch(z.boolean(), true), true),
});
export interface PopupChoices {
  language?: string;
  resolution?: Resolution;
  enableCaptions: boolean;
}

/** The remembered choice; a missing or damaged value falls back one field at a time. */
export function loadPopupChoices(storage: KeyValueStorage): PopupChoices {
  const raw = storage.getItem(POPUP_CHOICES_KEY);
  let stored: unknown = {};
  try {
    stored = raw ? JSON.parse(raw) : {};
  } catch {
    stored = {};
  }
  const parsed = popupChoicesSchema.safeParse(stored && typeof stored === 'object' ? stored : {});
  return parsed.success ? parsed.data : { enableCaptions: true };
}

export function savePopupChoices(storage: KeyValueStorage, choices: Required<PopupChoices>): void {
  storage.setItem(POPUP_CHOICES_KEY, JSON.stringify(choices));
}
