import { resolutionSchema } from './enums.js';
import { z } from './zod.js';

/**
 * The visitor page's "See what it makes" gallery: one example video per format, made by the
 * product's own offline generator once, in the background after the server starts, and kept.
 */

/** The gallery's headings and states, shared by the page and its tests. */
export const GALLERY_TEXT = {
  title: 'See what it makes',
  subtitle: 'Three short videos made by Reelsmith itself, one for each format. They play muted; turn the sound on in the player.',
  making: 'Being made…',
  failed: 'Not available',
} as const;

export const galleryExampleSchema = z.object({
  resolution: resolutionSchema,
  title: z.string(),
  /** Served by this server with long-lived caching; the file name changes when the example is remade. */
  videoUrl: z.string(),
  posterUrl: z.string(),
  width: z.number().check(z.int(), z.gt(0)),
  height: z.number().check(z.int(), z.gt(0)),
  durationSeconds: z.number().check(z.gt(0)),
});
export type GalleryExample = z.infer<typeof galleryExampleSchema>;

/**
 * `making`: some examples are still being made (those in `examples` are ready); `ready`: all are;
 * `failed`: making stopped with an error (the ready ones are still listed); `off`: GALLERY_EXAMPLES=off.
 */
export const galleryStateSchema = z.enum(['making', 'ready', 'failed', 'off']);
export type GalleryState = z.infer<typeof galleryStateSchema>;

export const galleryResponseSchema = z.object({
  state: galleryStateSchema,
  examples: z.array(galleryExampleSchema),
});
export type GalleryResponse = z.infer<typeof galleryResponseSchema>;
