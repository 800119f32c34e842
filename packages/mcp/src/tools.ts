import {
  DEFAULT_DURATION,
  DEFAULT_STORY_STYLE,
  deleteVideoResponseSchema,
  generateVideoBodySchema,
  generateVideoResponseSchema,
  imageCreditSchema,
  isActiveJobStatus,
  jobIdParamsSchema,
  jobStatusSchema,
  listVideosQuerySchema,
  pipelineStepSchema,
  renderVideoResponseSchema,
  RESEARCH_QUERY_MAX_LENGTH,
  researchArticlesResponseSchema,
  sourceCreditSchema,
  storyboardSchema,
  storyboardUpdateBodySchema,
  storyboardUpdateFrom,
  videoLanguageSchema,
  voicesQuerySchema,
  voicesResponseSchema,
  type GenerateVideoBody,
  type Storyboard,
  type VideoJob,
} from '@reelsmith/contracts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ReelsmithApi } from './reelsmith-api.js';
import { ReelsmithApiError } from '@reelsmith/sdk';
import { apiCall, toToolError, ToolError } from './tool-errors.js';

/**
 * The generate request's fields and rules without its final step (which fills the topic from the
 * source and swaps a custom style in): the agent sends what the API takes, and every field, the
 * source kinds included, comes from the contracts, so a new source kind appears here by itself.
 */
const generateBodySchema = generateVideoBodySchema._zod.def.in;

/**
 * What generate_video takes: the generate request's fields, with the four the API requires (style,
 * language, duration, voice) optional. An agent asked for "a video about X" sends only the topic;
 * what it leaves out is filled as the studio fills its form (see withDefaults), and the API checks
 * the whole request as it checks every other.
 */
const generateInputSchema = z.object({
  ...generateBodySchema.shape,
  style: z.optional(generateBodySchema.shape.style).describe(`The story style; left out: ${DEFAULT_STORY_STYLE}.`),
  language: z.optional(generateBodySchema.shape.language).describe("The narration language's code; left out: en."),
  duration: z.optional(generateBodySchema.shape.duration).describe(`Seconds (30, 60 or 90); left out: ${DEFAULT_DURATION}.`),
  voice: z
    .optional(generateBodySchema.shape.voice)
    .describe("A voice id from list_voices for the same language; left out: the language's first voice there."),
});
type GenerateInput = z.infer<typeof generateInputSchema>;

/** The product's defaults for what an agent leaves out: the studio form's first values (and the Settings' defaults). */
export const GENERATE_DEFAULTS = { style: DEFAULT_STORY_STYLE, language: 'en', duration: DEFAULT_DURATION } as const;

const videoIdSchema = jobIdParamsSchema.shape.id;
const videoIdInput = z.object({ videoId: videoIdSchema.check(z.describe('The video id (jobId) from generate_video or list_videos.')) });

const sceneEditShape = storyboardUpdateBodySchema.shape.scenes._zod.def.element.shape;

/** The longest get_video_status waits for the video to finish, so a call never outlasts a client's timeout. */
export const MAX_WAIT_SECONDS = 50;
const POLL_INTERVAL_MS = 1000;

const videoStatusSchema = z.object({
  videoId: z.string(),
  status: jobStatusSchema,
  /** The step running now (setup, story, voice, images, video), null when none is. */
  step: z.nullable(pipelineStepSchema),
  percent: z.number(),
  stepPercent: z.number(),
  topic: z.string(),
  error: z.nullable(z.string()),
  version: z.optional(z.number()),
  title: z.optional(z.string()),
  videoUrl: z.optional(z.string()),
  posterUrl: z.optional(z.string()),
  durationSeconds: z.optional(z.number()),
  credits: z.optional(z.array(imageCreditSchema)),
  source: z.optional(sourceCreditSchema),
});
export type VideoStatus = z.infer<typeof videoStatusSchema>;

const videoSummarySchema = z.object({
  videoId: z.string(),
  status: jobStatusSchema,
  topic: z.string(),
  percent: z.number(),
  createdAt: z.string(),
  title: z.optional(z.string()),
  version: z.optional(z.number()),
  videoUrl: z.optional(z.string()),
});

/**
 * The research route's answer (GET /api/research/articles) as the contracts define it: the articles
 * and, when one clearly matches the topic, the `match` a topic-only video would be told from.
 */
const researchArticlesSchema = researchArticlesResponseSchema;

const RESEARCH_MISSING =
  'This Reelsmith server has no article research (GET /api/research/articles answered 404): it is an older version. ' +
  'Give generate_video a topic, or a source of kind script, article or url, instead.';

/** Every tool: what an agent reads in tools/list, and the zod schemas its arguments and results are checked against. */
export const TOOL_DEFINITIONS = {
  generate_video: {
    title: 'Generate a video',
    description:
      'Starts a short narrated video (30, 60 or 90 s) from a topic, or from a source: your own script (told word for word), ' +
      "an article's text, a web page's url, or any other source kind listed in the schema. Returns at once with the video id; " +
      'follow it with get_video_status. voice is a voice id from list_voices for the same language. Only a topic (or a source) is needed: ' +
      "left out, style, language, duration and voice are the product's defaults and the language's first listed voice. Uses one video of the plan.",
    inputSchema: generateInputSchema,
    outputSchema: generateVideoResponseSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  get_video_status: {
    title: 'Video status',
    description:
      "A video's status (queued, processing, completed, failed, cancelled), its current step and percent; once completed, " +
      `the absolute videoUrl and posterUrl, its duration, version and picture credits. waitSeconds (up to ${MAX_WAIT_SECONDS}) waits for it to finish ` +
      'and sends progress notifications meanwhile when the client asks for them; 0 answers at once.',
    inputSchema: videoIdInput.extend({
      waitSeconds: z
        .number()
        .int()
        .min(0)
        .max(MAX_WAIT_SECONDS)
        .default(0)
        .describe(`Seconds to wait for the video to finish (0 to ${MAX_WAIT_SECONDS}); the answer comes as soon as it finishes.`),
    }),
    outputSchema: videoStatusSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_videos: {
    title: 'List videos',
    description: "This account's videos, newest first, with their ids, status, topic and, once finished, the video link.",
    inputSchema: listVideosQuerySchema,
    outputSchema: z.object({ videos: z.array(videoSummarySchema) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_voices: {
    title: 'List voices',
    description:
      "The narration voices for a language (male and female), from the server's current voice provider. Pass a voice's id as generate_video's voice.",
    inputSchema: voicesQuerySchema,
    outputSchema: voicesResponseSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  get_storyboard: {
    title: 'Read the storyboard',
    description:
      "A finished video's storyboard: title, voice, captions and its scenes in order, each with its id, narration, picture prompt, " +
      'picture link and place in the video. Edit scenes with update_scene, then render_video.',
    inputSchema: videoIdInput,
    outputSchema: storyboardSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  update_scene: {
    title: 'Edit a scene',
    description:
      "Changes one scene of a finished video's storyboard: its narration, its picture prompt (a new picture is made at the next render), " +
      'or its picture (imageUploadId of a picture uploaded with POST /api/uploads). Name the scene by its number (1 is the first) or its id. ' +
      'Nothing is rendered until render_video.',
    inputSchema: videoIdInput
      .extend({
        scene: z.number().int().min(1).optional().describe('The scene number as the storyboard lists it, 1 for the first.'),
        sceneId: z.string().min(1).max(64).optional().describe('The scene id from get_storyboard (instead of scene).'),
        narration: z.optional(sceneEditShape.narration).check(z.describe('What the narrator says in this scene.')),
        imagePrompt: z
          .optional(sceneEditShape.imagePrompt)
          .check(z.describe('What the picture shows: a new picture is made from it (replacing an uploaded one).')),
        imageUploadId: sceneEditShape.imageUploadId.check(
          z.describe('The id of a picture uploaded with POST /api/uploads, shown instead of a made one.'),
        ),
      })
      .refine((input) => input.scene !== undefined || input.sceneId !== undefined, {
        path: ['scene'],
        message: 'Name the scene to change: its number (scene) or its id (sceneId).',
      })
      .refine((input) => input.narration !== undefined || input.imagePrompt !== undefined || input.imageUploadId !== undefined, {
        path: ['narration'],
        message: 'Give the scene something to change: narration, imagePrompt or imageUploadId.',
      }),
    outputSchema: storyboardSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  render_video: {
    title: 'Render the edited video',
    description:
      'Renders the next version of a finished video from its storyboard after edits (uses no video of the plan; at most 20 re-renders). ' +
      'Returns at once with the new version number; follow it with get_video_status.',
    inputSchema: videoIdInput,
    outputSchema: renderVideoResponseSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  cancel_video: {
    title: 'Cancel a video',
    description:
      'Stops a queued or running video (a cancelled re-render keeps the previous version). A finished video is left as it is: delete it with delete_video.',
    inputSchema: videoIdInput,
    outputSchema: deleteVideoResponseSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  delete_video: {
    title: 'Delete a video',
    description:
      'Deletes a video with every version and the uploads only it uses (a running one is cancelled instead). It cannot be undone.',
    inputSchema: videoIdInput,
    outputSchema: deleteVideoResponseSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  research_articles: {
    title: 'Research articles',
    description:
      "Wikipedia articles that match a topic, with their titles, links and descriptions, to make a video of one (generate_video with a source) instead of the topic's own words. " +
      'match, when present, is the title of the article a topic-only generate_video of the same topic and language would be told from.',
    inputSchema: z.object({
      q: z.string().trim().min(1).max(RESEARCH_QUERY_MAX_LENGTH).describe('The topic to look up, e.g. "octopus".'),
      language: z
        .optional(videoLanguageSchema)
        .check(z.describe("The articles' language (the narration's language); the server's default when left out.")),
    }),
    outputSchema: researchArticlesSchema,
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
} as const;

export type ToolName = keyof typeof TOOL_DEFINITIONS;
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_DEFINITIONS)[N]['inputSchema']>;
type ToolHandler<N extends ToolName> = (args: ToolArgs<N>, extra: Extra) => Promise<CallToolResult>;

/** structuredContent for clients that read it, and the same in a line or two of text for those that do not. */
const result = (structured: object, summary: string): CallToolResult => ({
  structuredContent: structured as Record<string, unknown>,
  content: [{ type: 'text', text: summary }],
});

export function videoStatus(api: ReelsmithApi, job: VideoJob): VideoStatus {
  const finished = job.status === 'completed' && job.result !== null;
  const res = job.result;
  return {
    videoId: job.id,
    status: job.status,
    step: job.currentStep,
    percent: job.progress,
    stepPercent: job.stepProgress,
    topic: job.params.topic,
    error: job.error,
    ...(res?.version !== undefined ? { version: res.version } : {}),
    ...(res?.title !== undefined ? { title: res.title } : {}),
    ...(finished && res ? { videoUrl: api.absolute(res.videoUrl) } : {}),
    ...(finished && res?.posterUrl ? { posterUrl: api.absolute(res.posterUrl) } : {}),
    ...(finished && res?.durationSeconds !== undefined ? { durationSeconds: res.durationSeconds } : {}),
    ...(res?.credits ? { credits: res.credits } : {}),
    ...(res?.source ? { source: res.source } : job.params.source ? { source: job.params.source } : {}),
  };
}

function statusSummary(status: VideoStatus): string {
  switch (status.status) {
    case 'completed':
      return `Video ${status.videoId} is ready${status.version ? ` (version ${status.version})` : ''}: ${status.videoUrl ?? ''}${
        status.durationSeconds !== undefined ? `, ${Math.round(status.durationSeconds)} s` : ''
      }.`;
    case 'failed':
      return `Video ${status.videoId} failed: ${status.error ?? 'no reason given'}.`;
    case 'cancelled':
      return `Video ${status.videoId} was cancelled.`;
    case 'pending':
    case 'queued':
    case 'in_progress':
    case 'processing':
      return `Video ${status.videoId} is ${status.status}: ${status.percent}%${status.step ? `, step ${status.step}` : ''}. Ask again in a few seconds.`;
  }
}

/** The storyboard with its picture links made absolute, as an agent can open them. */
function withAbsoluteLinks(api: ReelsmithApi, board: Storyboard): Storyboard {
  return { ...board, scenes: board.scenes.map((scene) => ({ ...scene, imageUrl: scene.imageUrl && api.absolute(scene.imageUrl) })) };
}

function storyboardSummary(board: Storyboard): string {
  const scenes = board.scenes.map((scene, index) => `${index + 1}. [${scene.id}] ${scene.narration}`).join('\n');
  return `"${board.title}", version ${board.version}${board.changed ? ' (edited since; render_video to apply)' : ''}, ${board.durationSeconds} s:\n${scenes}`;
}

/**
 * The request with every option the agent left out filled in: the product's style, language and
 * duration, and the first voice the server lists for the language (with its provider), as a creator
 * gets them in the studio. What the agent did send is kept as it is.
 */
async function withDefaults(api: ReelsmithApi, args: GenerateInput): Promise<GenerateVideoBody> {
  const language = args.language ?? GENERATE_DEFAULTS.language;
  let { voice, voiceProvider } = args;
  if (voice === undefined) {
    const listed = await apiCall(() => api.client.call('voices', { query: { language: videoLanguageSchema.parse(language) } }));
    voice = listed.voices.male[0]?.id ?? listed.voices.female[0]?.id;
    if (!voice) throw new ToolError(`This server has no voice for ${language}: pass a voice id from list_voices.`);
    voiceProvider ??= listed.provider;
  }
  return {
    ...args,
    style: args.style ?? GENERATE_DEFAULTS.style,
    language,
    duration: args.duration ?? GENERATE_DEFAULTS.duration,
    voice,
    ...(voiceProvider ? { voiceProvider } : {}),
  };
}

function handlers(api: ReelsmithApi): { [N in ToolName]: ToolHandler<N> } {
  const { client } = api;
  const readJob = (videoId: string) => apiCall(() => client.call('videoStatus', { params: { id: videoId } }), videoId);

  return {
    async generate_video(args) {
      const body = await withDefaults(api, args);
      const started = await apiCall(() => client.generate(body));
      const filled = (['style', 'language', 'duration', 'voice'] as const).filter((key) => args[key] === undefined);
      const told = filled.length > 0 ? ` Left out, so filled in: ${filled.map((key) => `${key} ${String(body[key])}`).join(', ')}.` : '';
      return result(started, `Started video ${started.jobId} (${started.status}).${told} Follow it with get_video_status.`);
    },

    async get_video_status({ videoId, waitSeconds }, extra) {
      let job = await readJob(videoId);
      const deadline = Date.now() + waitSeconds * 1000;
      const progressToken = extra._meta?.progressToken;
      let reported = -1;
      while (isActiveJobStatus(job.status) && Date.now() + POLL_INTERVAL_MS <= deadline && !extra.signal.aborted) {
        if (progressToken !== undefined && job.progress !== reported) {
          reported = job.progress;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: job.progress, total: 100, message: job.currentStep ?? job.status },
          });
        }
        if (api.waitForChange) {
          // Served from the server's job events: the video is read again only once it changed.
          if (!(await api.waitForChange(videoId, deadline - Date.now(), extra.signal))) break;
        } else {
          await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
        }
        job = await readJob(videoId);
      }
      const status = videoStatus(api, job);
      return result(status, statusSummary(status));
    },

    async list_videos({ limit }) {
      const { jobs } = await apiCall(() => client.list({ limit }));
      const videos = jobs.map((job) => {
        const status = videoStatus(api, job);
        return {
          videoId: job.id,
          status: job.status,
          topic: job.params.topic,
          percent: job.progress,
          createdAt: job.created_at,
          ...(status.title !== undefined ? { title: status.title } : {}),
          ...(status.version !== undefined ? { version: status.version } : {}),
          ...(status.videoUrl !== undefined ? { videoUrl: status.videoUrl } : {}),
        };
      });
      const lines = videos.map((video) => `${video.videoId}: ${video.title ?? video.topic} (${video.status})`);
      return result({ videos }, videos.length ? lines.join('\n') : 'No videos yet.');
    },

    async list_voices(args) {
      const voices = await apiCall(() => client.call('voices', { query: { ...args } }));
      const all = [...voices.voices.male, ...voices.voices.female];
      return result(
        voices,
        `${all.length} ${voices.provider} voices for ${voices.language}: ${all.map((voice) => `${voice.id} (${voice.name}, ${voice.gender})`).join(', ')}.`,
      );
    },

    async get_storyboard({ videoId }) {
      const board = withAbsoluteLinks(api, await apiCall(() => client.call('storyboard', { params: { id: videoId } }), videoId));
      return result(board, storyboardSummary(board));
    },

    async update_scene({ videoId, scene, sceneId, narration, imagePrompt, imageUploadId }) {
      const board = await apiCall(() => client.call('storyboard', { params: { id: videoId } }), videoId);
      const index = sceneId !== undefined ? board.scenes.findIndex((each) => each.id === sceneId) : scene! - 1;
      const target = board.scenes[index];
      if (!target)
        throw new ToolError(
          sceneId !== undefined
            ? `sceneId: this storyboard has no scene ${sceneId}. get_storyboard lists the scene ids.`
            : `scene: this storyboard has scenes 1 to ${board.scenes.length}.`,
        );
      const edit = storyboardUpdateFrom(board);
      edit.scenes[index] = {
        id: target.id,
        narration: narration ?? target.narration,
        imagePrompt: imagePrompt ?? target.imagePrompt,
        // A new prompt paints a new picture, so it replaces an uploaded one unless another upload is given.
        ...(imageUploadId !== undefined
          ? { imageUploadId }
          : target.imageUploadId && imagePrompt === undefined
            ? { imageUploadId: target.imageUploadId }
            : {}),
      };
      const updated = withAbsoluteLinks(
        api,
        await apiCall(() => client.call('updateStoryboard', { params: { id: videoId }, body: edit }), videoId),
      );
      return result(updated, `Scene ${index + 1} changed. render_video makes version ${updated.version + 1} with it.`);
    },

    async render_video({ videoId }) {
      const queued = await apiCall(() => client.call('renderVideo', { params: { id: videoId } }), videoId);
      return result(queued, `Rendering version ${queued.version} of video ${queued.jobId}. Follow it with get_video_status.`);
    },

    async cancel_video({ videoId }) {
      const job = await readJob(videoId);
      // DELETE cancels an active video but deletes a finished one: never let "cancel" delete.
      if (!isActiveJobStatus(job.status))
        throw new ToolError(`Video ${videoId} is ${job.status}, so there is nothing to cancel. delete_video deletes it.`);
      const answer = await apiCall(() => client.call('deleteVideo', { params: { id: videoId } }), videoId);
      return result(answer, answer.message);
    },

    async delete_video({ videoId }) {
      const answer = await apiCall(() => client.call('deleteVideo', { params: { id: videoId } }), videoId);
      return result(answer, answer.message);
    },

    async research_articles({ q, language }) {
      let json: unknown;
      try {
        json = await api.getJson('/api/research/articles', { q, ...(language ? { language } : {}) });
      } catch (error) {
        // A server from before the research feature has no such route.
        if (error instanceof ReelsmithApiError && error.status === 404) throw new ToolError(RESEARCH_MISSING);
        throw toToolError(error);
      }
      const found = researchArticlesSchema.parse(json);
      const lines = found.articles.map((article) => `${article.title}: ${article.url}`);
      const summary = lines.length ? lines.join('\n') : `No articles match "${q}".`;
      // The agent learns which article a topic-only video would use, as the studio shows it.
      return result(found, found.match ? `A video of "${q}" would be told from: ${found.match}\n${summary}` : summary);
    },
  };
}

export function registerTools(server: McpServer, api: ReelsmithApi): void {
  const all = handlers(api);
  for (const name of Object.keys(TOOL_DEFINITIONS) as ToolName[]) {
    const definition = TOOL_DEFINITIONS[name];
    // Each handler is typed against its own definition above; the loop only pairs them up.
    server.registerTool(name, definition as never, all[name] as never);
  }
}
