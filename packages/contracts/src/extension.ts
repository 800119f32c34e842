import { z } from './zod.js';
import { userSchema } from './auth.js';
import { jobStatusSchema } from './enums.js';
import { articleSourceSchema, scriptSourceSchema } from './source.js';
import { generateVideoBodySchema, TOPIC_MAX_LENGTH, videoJobSchema } from './videos.js';

/**
 * The Chrome extension's messages and stored state. The background service worker owns the one
 * live connection and the job list; the popup and side panel read the list from chrome.storage and
 * ask the worker to act through these runtime messages. Every message is parsed on arrival.
 */

/** A one-time code that lets the web app sign the extension in: random, single use, 60 s. */
export const EXTENSION_HANDOFF_CODE_TTL_MS = 60_000;
export const extensionHandoffCodeSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{32,128}$/, 'Invalid hand-off code'));

export const extensionHandoffResponseSchema = z.object({ code: extensionHandoffCodeSchema, expiresAt: z.string() });
export type ExtensionHandoffResponse = z.infer<typeof extensionHandoffResponseSchema>;

export const extensionHandoffExchangeBodySchema = z.object({ code: extensionHandoffCodeSchema });
export type ExtensionHandoffExchangeBody = z.infer<typeof extensionHandoffExchangeBodySchema>;

/** A new session for the extension, so signing out of the web app leaves it signed in and vice versa. */
export const extensionHandoffExchangeResponseSchema = z.object({ token: z.string(), user: userSchema });
export type ExtensionHandoffExchangeResponse = z.infer<typeof extensionHandoffExchangeResponseSchema>;

export const EXTENSION_HANDOFF_MESSAGES = {
  invalidCode: 'This sign-in link has expired. Connect the extension again from the web app.',
  connected: 'The Chrome extension is now signed in.',
  notInstalled: 'The Reelsmith extension is not installed in this browser.',
  failed: 'Could not connect the extension. Please try again.',
} as const;

/** chrome.storage keys the extension shares between its worker and its pages. */
export const EXTENSION_STORAGE_KEYS = {
  /** chrome.storage.local: the jobs the worker follows (ExtensionJobState). */
  jobs: 'reelsmith-extension-jobs',
  /** chrome.storage.local: the API origin chosen on the options page (falls back to the build's). */
  apiBaseUrl: 'reelsmith-api-base-url',
  /** chrome.storage.session: what a page's context menu asked the side panel's form to start from, read once. */
  pendingRequest: 'reelsmith-pending-request',
} as const;

export const extensionJobStateSchema = z.object({
  jobs: z.array(videoJobSchema),
  /** Job ids already announced by a notification: one per job, even if events repeat. */
  notified: z.array(z.string()),
  /** Whether the worker's live connection is up (the spec's "connected flag"). */
  connected: z.boolean(),
  updatedAt: z.string(),
});
export type ExtensionJobState = z.infer<typeof extensionJobStateSchema>;

export const EMPTY_EXTENSION_JOB_STATE: ExtensionJobState = {
  jobs: [],
  notified: [],
  connected: false,
  updatedAt: new Date(0).toISOString(),
};

/**
 * What the studio form is asked to start from: a topic ("Create a video about this"), the selected
 * text as a script ("Make a video of this text") or a page's article ("Make a video of this page").
 */
export const formRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('topic'), topic: z.string().check(z.trim(), z.minLength(1), z.maxLength(TOPIC_MAX_LENGTH)) }),
  scriptSourceSchema,
  articleSourceSchema,
]);
export type FormRequest = z.output<typeof formRequestSchema>;

/** A form request the worker's context menu left in chrome.storage.session for the side panel. */
export const pendingRequestSchema = z.object({ request: formRequestSchema, createdAt: z.string() });
export type PendingRequest = z.infer<typeof pendingRequestSchema>;

/**
 * What the reader injected into a page answers: the page's article as Readability finds it (main
 * text without navigation, banners or footers), or why there is none. Parsed on arrival: it comes
 * from a page the extension does not control.
 */
export const pageArticleResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    title: z.string(),
    url: z.string(),
    /** Paragraphs separated by blank lines; the extension cuts it to ARTICLE_MAX_LENGTH. */
    text: z.string(),
  }),
  z.object({ ok: z.literal(false), reason: z.enum(['no-article']) }),
]);
export type PageArticleResult = z.infer<typeof pageArticleResultSchema>;

/** From the extension's own pages (popup, side panel, options) to its worker. */
export const extensionRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('submit'), params: generateVideoBodySchema }),
  z.object({ type: z.literal('cancel'), jobId: z.string().check(z.minLength(1), z.maxLength(64)) }),
  /** A retried or re-rendered job is active again: take the server's copy as it is (job-state never reopens a finished job by itself). */
  z.object({ type: z.literal('reopen'), jobId: z.string().check(z.minLength(1), z.maxLength(64)) }),
  /** Re-read the jobs over REST and reconnect (the pages send it when they open). */
  z.object({ type: z.literal('refresh') }),
  /** The API origin changed on the options page. */
  z.object({ type: z.literal('api-origin-changed') }),
]);
export type ExtensionRequest = z.infer<typeof extensionRequestSchema>;

/** From a web page allowed by externally_connectable to the worker. */
export const extensionExternalRequestSchema = z.discriminatedUnion('type', [
  /** Lets the web app see that the extension is installed. */
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('handoff'), code: extensionHandoffCodeSchema }),
]);
export type ExtensionExternalRequest = z.infer<typeof extensionExternalRequestSchema>;

export const extensionResponseSchema = z.union([
  z.object({
    ok: z.literal(true),
    jobId: z.optional(z.string()),
    /** A submit's answer from the server, passed through. */
    status: z.optional(jobStatusSchema),
    message: z.optional(z.string()),
    version: z.optional(z.string()),
    user: z.optional(userSchema),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ExtensionResponse = z.infer<typeof extensionResponseSchema>;
