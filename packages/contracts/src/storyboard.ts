import { z } from './zod.js';
import { captionStyleSchema, DURATIONS } from './enums.js';
import { humanText } from './text.js';
import { attributionSchema } from './source.js';

/**
 * The storyboard of a finished video: what the creator edits at /videos/:id/edit, the
 * uploads they put in it, and the versions a render makes. One shape for the studio, the extension
 * and the public API.
 */

export const STORYBOARD_MAX_SCENES = 12;
export const SCENE_NARRATION_MAX_LENGTH = 600;
export const SCENE_IMAGE_PROMPT_MAX_LENGTH = 1000;
export const STORYBOARD_TITLE_MAX_LENGTH = 120;
/** A video can be rendered again at most this many times (v2 … v21). */
export const MAX_RERENDERS = 20;
/**
 * Words a second of video holds: a brisk narrator speaks about 3 words a second (178 wpm), and the
 * renderer may speed narration up by 15%, so a storyboard above this cannot fit its duration.
 */
export const NARRATION_WORDS_PER_SECOND_LIMIT = 3.3;
export const UPLOAD_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_AUDIO_MAX_BYTES = 20 * 1024 * 1024;
/** Above this a picture is refused: 24 MP is more than any phone camera's default and 7× a 4K frame. */
export const UPLOAD_IMAGE_MAX_PIXELS = 24_000_000;
export const MUSIC_VOLUME_DEFAULT = 30;
/** How much longer than its video a background track may be (it is cut to the video). */
export const MUSIC_MARGIN_SECONDS = 30;
/** The longest sound taken: the longest video and the margin. Longer files are refused before decoding. */
export const MUSIC_MAX_SECONDS = Math.max(...DURATIONS) + MUSIC_MARGIN_SECONDS;

/** An SVG logo: the file's size, the largest width or height it may declare, and the raster's longest side. */
export const UPLOAD_SVG_MAX_BYTES = 512 * 1024;
export const UPLOAD_SVG_MAX_SIDE = 16_384;
/** Neither side of an SVG logo may be more than this many times the other. */
export const UPLOAD_SVG_MAX_ASPECT = 16;
export const LOGO_RASTER_SIDE = 1024;

/** Why an SVG logo is refused; its own object so bundles that never upload one leave it out. */
export const SVG_UPLOAD_MESSAGES = {
  notLogo: 'An SVG picture can only be your logo, set in Settings → Brand. For a scene, upload a PNG, JPEG or WebP picture.',
  tooLarge: `The SVG is larger than ${UPLOAD_SVG_MAX_BYTES / 1024} KB. Simplify it or upload the logo as a PNG.`,
  script: 'The SVG contains a script or an event handler (an on…= attribute). Remove it and upload the logo again.',
  entity: 'The SVG declares XML entities (<!ENTITY …>), which are not accepted. Export it again without them.',
  external: (reference: string) =>
    `The SVG refers to something outside the file (${reference}). Embed pictures as data: URLs (PNG, JPEG, GIF or WebP), convert text that needs a web font to paths, and upload it again.`,
  unreadable: 'The file starts like an SVG but is not a well-formed SVG picture. Export it again.',
  size: (width: number, height: number) =>
    `The SVG is ${Math.round(width)}×${Math.round(height)}; its width and height must each be between 1 and ${UPLOAD_SVG_MAX_SIDE}, and neither more than ${UPLOAD_SVG_MAX_ASPECT} times the other.`,
  tooComplex: (reason: string) => `This logo is too complex (${reason}). Simplify it or upload the logo as a PNG.`,
  embeddedTooManyPixels: (megapixels: number) =>
    `The SVG embeds a picture of ${megapixels.toFixed(1)} megapixels; at most ${UPLOAD_IMAGE_MAX_PIXELS / 1_000_000} are accepted. Embed a smaller picture.`,
};

export const STORYBOARD_MESSAGES = {
  narrationRequired: (scene: number) => `Scene ${scene}: the narration is empty. Write what the narrator says, or delete the scene.`,
  narrationTooLong: (scene: number) => `Scene ${scene}: the narration is longer than ${SCENE_NARRATION_MAX_LENGTH} characters.`,
  imagePromptRequired: (scene: number) => `Scene ${scene}: the image prompt is empty. Describe the picture, or upload your own.`,
  imagePromptTooLong: (scene: number) => `Scene ${scene}: the image prompt is longer than ${SCENE_IMAGE_PROMPT_MAX_LENGTH} characters.`,
  tooManyScenes: `A video has at most ${STORYBOARD_MAX_SCENES} scenes.`,
  noScenes: 'A video needs at least one scene.',
  titleRequired: 'The title is empty.',
  narrationTooLongForDuration: (words: number, limit: number, seconds: number) =>
    `The narration has ${words} words; a ${seconds} s video holds at most ${limit}. Shorten a scene or delete one.`,
  unknownUpload: 'That upload does not exist. Upload the file again.',
  uploadNotImage: 'That upload is a sound, not a picture. Choose a PNG, JPEG or WebP picture.',
  uploadNotAudio: 'That upload is a picture, not a sound. Choose an MP3, WAV or M4A file.',
  notReady: 'The video is not finished yet. Its storyboard opens once the first render is done.',
  notFinished: 'This video did not finish, so it has no storyboard yet. Generate it again, then edit it.',
  noStoryboard: 'This video was made before storyboards existed, so it cannot be edited. Generate it again to edit it.',
  renderRunning: 'This video is rendering. Wait for it to finish before changing or rendering it again.',
  rerenderLimit: `A video can be rendered again at most ${MAX_RERENDERS} times. Generate a new video to keep editing.`,
  uploadMissingFile: 'Attach the file in the form field named "file".',
  uploadEmpty: 'The file is empty (0 bytes).',
  uploadImageTooLarge: `The picture is larger than ${UPLOAD_IMAGE_MAX_BYTES / 1024 / 1024} MB.`,
  uploadAudioTooLarge: `The sound file is larger than ${UPLOAD_AUDIO_MAX_BYTES / 1024 / 1024} MB.`,
  uploadTooLarge: `The file is larger than ${UPLOAD_AUDIO_MAX_BYTES / 1024 / 1024} MB.`,
  uploadUnreadable:
    'The file is not a picture or sound we can read. Upload a PNG, JPEG or WebP picture (up to 10 MB) or an MP3, WAV or M4A sound (up to 20 MB).',
  uploadDamaged: 'The file is damaged or cut short and cannot be read completely. Export it again and upload the new file.',
  uploadTooManyPixels: (megapixels: number) =>
    `The picture is ${megapixels.toFixed(1)} megapixels; at most ${UPLOAD_IMAGE_MAX_PIXELS / 1_000_000} megapixels are accepted. Resize it and upload it again.`,
  uploadAudioTooLong: (seconds: number, maxSeconds: number) =>
    `The sound is ${Math.round(seconds)} s long; at most ${maxSeconds} s is accepted (the video's length and ${MUSIC_MARGIN_SECONDS} s). Trim it and upload it again.`,
  uploadWrongFormat: (format: string) =>
    `${format} files are not accepted. Upload a PNG, JPEG or WebP picture, or an MP3, WAV or M4A sound.`,
} as const;

/** Words as the narration budget counts them: spaces separate words; text without spaces (ja, zh) counts 2.5 characters a word. */
export function countNarrationWords(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const spaced = trimmed.split(/\s+/).length;
  const unspaced = Math.ceil(trimmed.replace(/\s+/g, '').length / 2.5);
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(trimmed) ? Math.max(spaced, unspaced) : spaced;
}

/** The most words a video of this length can narrate. */
export const narrationWordLimit = (durationSeconds: number): number => Math.floor(durationSeconds * NARRATION_WORDS_PER_SECOND_LIMIT);

export const uploadKindSchema = z.enum(['image', 'audio']);
export type UploadKind = z.infer<typeof uploadKindSchema>;

export const musicSchema = z.object({
  uploadId: z.string().check(z.minLength(1), z.maxLength(64)),
  volumePercent: z
    .number()
    .check(z.int(), z.gte(0, 'The music volume is between 0 and 100'), z.lte(100, 'The music volume is between 0 and 100')),
});
export type StoryboardMusic = z.infer<typeof musicSchema>;

export const storyboardSceneSchema = z.object({
  id: z.string(),
  narration: z.string(),
  imagePrompt: z.string(),
  /** The picture the last render used (null for a scene added or given a new picture since). */
  imageUrl: z.nullable(z.string()),
  /** Where the scene sits in the last render; null until it has been rendered. */
  startSeconds: z.nullable(z.number()),
  durationSeconds: z.nullable(z.number()),
  /** The creator's own picture, when the scene uses one. */
  imageUploadId: z.optional(z.string()),
  /** The main thing the rendered picture shows, in English ("bicycle"), when its provider said. */
  subject: z.optional(z.string()),
  /**
   * The credit of the rendered picture when it is a free-licensed one from Wikimedia Commons (a
   * researched video): its title, author, licence and file page. "Regenerate" then offers the next one.
   */
  attribution: z.optional(attributionSchema),
  /** True when the scene changed since the last render (its narration, picture or place). */
  changed: z.boolean(),
  /**
   * The source's sentences this scene tells, in the source's order, as the source wrote them
   * (before any trimming). Present only for videos made from a script or an article.
   */
  sourceSentences: z.optional(z.array(z.string())),
  /** True when the narration is no longer the one written from `sourceSentences` (the creator rewrote it). */
  narrationEdited: z.optional(z.boolean()),
});
export type StoryboardScene = z.infer<typeof storyboardSceneSchema>;

export const storyboardSchema = z.object({
  videoId: z.string(),
  /** The latest rendered version. */
  version: z.number().check(z.int(), z.gte(1)),
  title: z.string(),
  voice: z.string(),
  captionStyle: captionStyleSchema,
  enableCaptions: z.boolean(),
  enableZoom: z.boolean(),
  music: z.optional(musicSchema),
  scenes: z.array(storyboardSceneSchema),
  /** Video length the narration must fit (the duration chosen at generation). */
  durationSeconds: z.number(),
  /** Renders still allowed for this video. */
  rendersLeft: z.number().check(z.int(), z.gte(0)),
  /** True when something changed since the last render. */
  changed: z.boolean(),
  /**
   * The stored storyboard's version tag, also sent as the `ETag` header (quoted). A PUT with
   * `If-Match: "<revision>"` is refused with a 412 when the storyboard has changed since.
   */
  revision: z.string(),
});
export type Storyboard = z.infer<typeof storyboardSchema>;

/** How many storyboard writes (PUT) one video takes in STORYBOARD_WRITE_WINDOW_SECONDS; autosave sends at most one a second. */
export const STORYBOARD_WRITES_PER_WINDOW = 20;
export const STORYBOARD_WRITE_WINDOW_SECONDS = 10;

export const STORYBOARD_CONFLICT_MESSAGE =
  'This storyboard changed in another tab or window since you opened it. Reload it, or send your version again with its current ETag in If-Match.';

/** The 412 of a PUT whose If-Match names an older version: the error and the storyboard as it is now. */
export const storyboardConflictSchema = z.object({
  statusCode: z.literal(412),
  error: z.string(),
  message: z.string(),
  storyboard: storyboardSchema,
});
export type StoryboardConflict = z.infer<typeof storyboardConflictSchema>;

const sceneEditSchema = z.object({
  /** Absent for a new scene. */
  id: z.optional(humanText(z.string().check(z.minLength(1), z.maxLength(64)), 'The scene id')),
  // The same text rules as a generate request's topic: a NUL or a lone surrogate breaks the voice and caption steps.
  narration: humanText(
    z.string({ error: 'Each scene needs its narration' }).check(z.maxLength(SCENE_NARRATION_MAX_LENGTH + 200)),
    'The narration',
    { multiline: true },
  ),
  imagePrompt: humanText(
    z.string({ error: 'Each scene needs its image prompt' }).check(z.maxLength(SCENE_IMAGE_PROMPT_MAX_LENGTH + 200)),
    'The image prompt',
    { multiline: true },
  ),
  imageUploadId: z.optional(humanText(z.string().check(z.minLength(1), z.maxLength(64)), 'The upload id')),
  regenerateImage: z.optional(z.boolean()),
});
export type StoryboardSceneEdit = z.infer<typeof sceneEditSchema>;

/** PUT /api/videos/:id/storyboard: the same shape as GET (read-only fields are ignored). */
export const storyboardUpdateBodySchema = z
  .object({
    title: humanText(
      z
        .string({ error: STORYBOARD_MESSAGES.titleRequired })
        .check(
          z.trim(),
          z.minLength(1, STORYBOARD_MESSAGES.titleRequired),
          z.maxLength(STORYBOARD_TITLE_MAX_LENGTH, `The title is longer than ${STORYBOARD_TITLE_MAX_LENGTH} characters.`),
        ),
      'The title',
    ),
    voice: humanText(
      z.string({ error: 'Choose a voice' }).check(z.trim(), z.minLength(1, 'Choose a voice'), z.maxLength(200)),
      'The voice',
    ),
    captionStyle: captionStyleSchema,
    enableCaptions: z.boolean(),
    enableZoom: z.boolean(),
    music: z.optional(z.nullable(musicSchema)),
    scenes: z
      .array(sceneEditSchema)
      .check(z.minLength(1, STORYBOARD_MESSAGES.noScenes), z.maxLength(STORYBOARD_MAX_SCENES, STORYBOARD_MESSAGES.tooManyScenes)),
  })
  .check(
    z.superRefine((body, ctx) => {
      body.scenes.forEach((scene, index) => {
        const number = index + 1;
        if (scene.narration.trim() === '')
          ctx.addIssue({ code: 'custom', path: ['scenes', index, 'narration'], message: STORYBOARD_MESSAGES.narrationRequired(number) });
        else if (scene.narration.trim().length > SCENE_NARRATION_MAX_LENGTH) {
          ctx.addIssue({ code: 'custom', path: ['scenes', index, 'narration'], message: STORYBOARD_MESSAGES.narrationTooLong(number) });
        }
        if (scene.imagePrompt.trim() === '' && !scene.imageUploadId) {
          ctx.addIssue({
            code: 'custom',
            path: ['scenes', index, 'imagePrompt'],
            message: STORYBOARD_MESSAGES.imagePromptRequired(number),
          });
        } else if (scene.imagePrompt.trim().length > SCENE_IMAGE_PROMPT_MAX_LENGTH) {
          ctx.addIssue({ code: 'custom', path: ['scenes', index, 'imagePrompt'], message: STORYBOARD_MESSAGES.imagePromptTooLong(number) });
        }
      });
    }),
  );
export type StoryboardUpdateBody = z.input<typeof storyboardUpdateBodySchema>;

export interface NarrationBudget {
  /** The narration's words, each scene counted by countNarrationWords. */
  words: number;
  /** The most a video of this length holds (narrationWordLimit). */
  limit: number;
}

/**
 * The one narration budget: the editor's "N of M words", the storyboard PUT's check and the story
 * writers' cap (the pipeline's storyWordCap) all count with this, so a story the generator wrote can
 * always be saved back unchanged.
 */
export function narrationBudget(scenes: ReadonlyArray<{ narration: string }>, durationSeconds: number): NarrationBudget {
  return {
    words: scenes.reduce((sum, scene) => sum + countNarrationWords(scene.narration), 0),
    limit: narrationWordLimit(durationSeconds),
  };
}

/** The narration budget check shared by the server (which knows the duration) and the studio. */
export function narrationBudgetError(scenes: ReadonlyArray<{ narration: string }>, durationSeconds: number): string | null {
  const { words, limit } = narrationBudget(scenes, durationSeconds);
  return words > limit ? STORYBOARD_MESSAGES.narrationTooLongForDuration(words, limit, durationSeconds) : null;
}

/** `purpose=logo` keeps a picture's transparency (stored as PNG) for the brand kit's logo. */
export const uploadQuerySchema = z.object({ purpose: z.optional(z.enum(['scene', 'logo'])) });

export const uploadResponseSchema = z.object({
  id: z.string(),
  kind: uploadKindSchema,
  width: z.optional(z.number().check(z.int())),
  height: z.optional(z.number().check(z.int())),
  durationSeconds: z.optional(z.number()),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

export const renderVideoResponseSchema = z.object({ jobId: z.string(), version: z.number().check(z.int(), z.gte(2)) });
export type RenderVideoResponse = z.infer<typeof renderVideoResponseSchema>;

/**
 * What a render did: its wall-clock time and how many scene segments it drew afresh or took from the
 * segment cache. A one-scene edit should reuse every other scene's segment.
 */
export const renderStatsSchema = z.object({
  seconds: z.number().check(z.gte(0)),
  segmentsRendered: z.number().check(z.int(), z.gte(0)),
  segmentsReused: z.number().check(z.int(), z.gte(0)),
});
export type RenderStats = z.infer<typeof renderStatsSchema>;

export const videoVersionSchema = z.object({
  version: z.number().check(z.int(), z.gte(1)),
  videoUrl: z.string(),
  createdAt: z.string(),
  durationSeconds: z.optional(z.number()),
  posterUrl: z.optional(z.string()),
  filename: z.optional(z.string()),
  /** Absent only on versions rendered before render statistics were recorded. */
  renderStats: z.optional(renderStatsSchema),
});
export type VideoVersion = z.infer<typeof videoVersionSchema>;

export const videoVersionsResponseSchema = z.object({ versions: z.array(videoVersionSchema) });
export type VideoVersionsResponse = z.infer<typeof videoVersionsResponseSchema>;

/** What an update is written from: a storyboard as read, or a client's draft of one (scenes added since have no id). */
export interface StoryboardUpdateSource {
  readonly title: string;
  readonly voice: string;
  readonly captionStyle: StoryboardUpdateBody['captionStyle'];
  readonly enableCaptions: boolean;
  readonly enableZoom: boolean;
  readonly music?: StoryboardMusic | null | undefined;
  readonly scenes: readonly {
    readonly id?: string | undefined;
    readonly narration: string;
    readonly imagePrompt: string;
    readonly imageUploadId?: string | undefined;
    readonly regenerateImage?: boolean | undefined;
  }[];
}

/**
 * The update body that keeps `source` as it is: its settings and each scene's words, prompt and uploaded
 * picture, nothing read-only. The studio's editor and the MCP tools both send their edits through it.
 */
export function storyboardUpdateFrom(source: StoryboardUpdateSource): StoryboardUpdateBody {
  return {
    title: source.title,
    voice: source.voice,
    captionStyle: source.captionStyle,
    enableCaptions: source.enableCaptions,
    enableZoom: source.enableZoom,
    music: source.music ? { uploadId: source.music.uploadId, volumePercent: source.music.volumePercent } : null,
    scenes: source.scenes.map((scene) => ({
      ...(scene.id ? { id: scene.id } : {}),
      narration: scene.narration,
      imagePrompt: scene.imagePrompt,
      ...(scene.imageUploadId ? { imageUploadId: scene.imageUploadId } : {}),
      ...(scene.regenerateImage ? { regenerateImage: true } : {}),
    })),
  };
}
