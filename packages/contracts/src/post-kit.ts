import { humanText } from './text.js';
import { z } from './zod.js';

// The post kit itself (postKitSchema) lives with the video's result in videos.ts: every client reads
// results, while this module's edit and caption-file schemas load only with the routes that use them.

/**
 * What a post needs beside the video: a title (YouTube's limit, 100 characters), a description that
 * summarises the video and ends with its credits and an AI-content notice, and 3–8 hashtags, in the
 * narration's language. Written with the video (by the model with an LLM story writer, from the
 * story offline) and editable by the creator.
 */
export const POST_TITLE_MAX_LENGTH = 100;
export const POST_DESCRIPTION_MAX_LENGTH = 5000;
export const POST_HASHTAGS_MAX_COUNT = 30;

const HASHTAG = /^#[\p{L}\p{M}\p{N}_]{1,99}$/u;

/** PUT /api/videos/:id/post: the creator's title, description and hashtags. */
export const postKitUpdateBodySchema = z.object({
  title: humanText(z.string().check(z.trim(), z.minLength(1), z.maxLength(POST_TITLE_MAX_LENGTH)), 'The title'),
  description: humanText(z.string().check(z.maxLength(POST_DESCRIPTION_MAX_LENGTH)), 'The description', { multiline: true }),
  hashtags: z
    .array(
      humanText(
        z.string().check(
          z.trim(),
          z.refine((tag) => HASHTAG.test(tag), 'A hashtag is # and then letters, digits or _ (no spaces or punctuation)'),
        ),
        'A hashtag',
      ),
    )
    .check(
      z.maxLength(POST_HASHTAGS_MAX_COUNT),
      z.refine((tags) => new Set(tags.map((tag) => tag.toLowerCase())).size === tags.length, 'Each hashtag may appear only once'),
    ),
});
export type PostKitUpdateBody = z.output<typeof postKitUpdateBodySchema>;

export const CAPTION_FILE_FORMATS = ['srt', 'vtt'] as const;
export type CaptionFileFormat = (typeof CAPTION_FILE_FORMATS)[number];

/** GET /api/videos/:id/captions?format=srt|vtt&version=N (the latest version when N is left out). */
export const captionFileQuerySchema = z.object({
  format: z._default(z.enum(CAPTION_FILE_FORMATS), 'srt'),
  version: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000))),
});

/** What the caption file and post kit routes tell a creator. */
export const POST_KIT_MESSAGES = {
  notFinished: 'This video is not finished yet: its captions and post text come with it.',
  noCaptionFile: 'This video was made before caption files existed: render it again from its storyboard to get them.',
  unknownVersion: 'This video has no such version.',
} as const;
