import { resolve as resolvePath } from 'node:path';
import { z } from 'zod';

export interface PipelineEnvVariable {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the pipeline reads, as data: docs/configuration.md's generator table is written from it (`npm run docs:config`). */
export const PIPELINE_ENV_VARIABLES: readonly PipelineEnvVariable[] = [
  {
    name: 'STORY_PROVIDER',
    default: 'offline',
    description: 'Story writer: `offline` (built-in) or `openai` (any OpenAI-compatible chat API).',
  },
  {
    name: 'OPENAI_BASE_URL',
    default: 'https://api.openai.com/v1',
    description: 'Base URL of the OpenAI-compatible API (OpenAI, Azure OpenAI, Ollama, vLLM, OpenRouter).',
  },
  {
    name: 'OPENAI_API_KEY',
    default: '(none)',
    description: 'Key for the OpenAI-compatible API; required by `STORY_PROVIDER=openai` unless the server needs none (Ollama).',
  },
  { name: 'OPENAI_API_KEY_HEADER', default: 'bearer', description: '`bearer` (Authorization header) or `api-key` (Azure OpenAI).' },
  { name: 'OPENAI_API_VERSION', default: '(none)', description: 'api-version query parameter for classic Azure OpenAI deployments.' },
  { name: 'OPENAI_MODEL', default: 'gpt-4o-mini', description: 'Chat model that writes the story.' },
  {
    name: 'IMAGE_PROVIDER',
    default: 'offline',
    description:
      'Scene pictures: `offline` (generated art), `openai` (OpenAI-compatible image API), `pexels` (stock videos and photos) or `unsplash` (stock photos); their authors are credited in My Videos.',
  },
  { name: 'PEXELS_API_KEY', default: '(none)', description: 'Pexels API key; enables `IMAGE_PROVIDER=pexels`.' },
  {
    name: 'PEXELS_VIDEOS',
    default: 'true',
    description:
      'With `IMAGE_PROVIDER=pexels`, scenes get stock video clips (trimmed and scaled into the scene, no Ken Burns), photos where no clip matches; `false` for photos only.',
  },
  { name: 'UNSPLASH_ACCESS_KEY', default: '(none)', description: 'Unsplash access key; enables `IMAGE_PROVIDER=unsplash`.' },
  { name: 'IMAGE_API_BASE_URL', default: '(OPENAI_BASE_URL)', description: 'Base URL of the image API.' },
  { name: 'IMAGE_API_KEY', default: '(OPENAI_API_KEY)', description: 'Key for the image API.' },
  { name: 'OPENAI_IMAGE_MODEL', default: 'gpt-image-1', description: 'Image model.' },
  {
    name: 'VOICE_PROVIDER',
    default: 'neural',
    description:
      "Default narration voice: `neural` (Kokoro-82M on this machine; espeak-ng until its model is downloaded), `offline` (espeak-ng), `azure` or `elevenlabs`. `npm run generate` narrates with it; with `neural` the server fetches the model in the background at start. The studio's voice provider is the admin's choice (Admin → Providers; `offline` on a fresh database).",
  },
  {
    name: 'VOICE_MODEL_URL',
    default: 'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX',
    description:
      "Where the natural voices' model (326 MB, Apache-2.0) is fetched from, laid out as a Hugging Face repository, into DATA_DIR/models (by `npm run voices:download`, or by the server in the background when `VOICE_PROVIDER=neural` and it is missing; not in test runs or with CI set unless this is set). `off`: never download.",
  },
  {
    name: 'VOICE_MODEL_MANIFEST',
    default: '(the pinned Kokoro-82M v1.0 files)',
    description:
      "A JSON file listing the model's files with their sizes and SHA-256 sums, instead of the pinned ones (another mirror or model build).",
  },
  { name: 'AZURE_SPEECH_KEY', default: '(none)', description: 'Azure Speech resource key; enables the `azure` voices.' },
  { name: 'AZURE_SPEECH_REGION', default: '(none)', description: 'Azure Speech region, e.g. `eastus`.' },
  { name: 'AZURE_SPEECH_ENDPOINT', default: '(region endpoint)', description: 'Full Azure TTS host instead of the region one.' },
  { name: 'ELEVENLABS_API_KEY', default: '(none)', description: 'ElevenLabs key; enables the `elevenlabs` voices.' },
  { name: 'ELEVENLABS_MODEL_ID', default: 'eleven_multilingual_v2', description: 'ElevenLabs model.' },
  { name: 'ELEVENLABS_BASE_URL', default: 'https://api.elevenlabs.io', description: 'ElevenLabs API host.' },
  {
    name: 'RESEARCH_PROVIDER',
    default: 'wikipedia',
    description:
      "Research for topic-only videos: `wikipedia` (the narration language's Wikipedia article and free Commons pictures, credited; no key) or `off`. The topic is sent to Wikimedia.",
  },
  {
    name: 'WIKIPEDIA_API_URL',
    default: 'https://{lang}.wikipedia.org/w/api.php',
    description: 'MediaWiki Action API of Wikipedia; `{lang}` is the narration language (tests point it at a local fake).',
  },
  {
    name: 'COMMONS_API_URL',
    default: 'https://commons.wikimedia.org/w/api.php',
    description: 'MediaWiki Action API of Wikimedia Commons.',
  },
  {
    name: 'RESEARCH_MEDIA_HOSTS',
    default: 'upload.wikimedia.org,thumb.wikimedia.org',
    description:
      'Comma-separated hosts (with an optional port) picture files may be downloaded from, checked on every redirect hop; any other address an API answer names is ignored. Wikimedia is moving thumbnails from `upload.wikimedia.org` to `thumb.wikimedia.org`: keep both.',
  },
  {
    name: 'WIKIMEDIA_CONTACT',
    default: '(PUBLIC_URL)',
    description:
      "An e-mail address or URL where Wikimedia can reach this server's operator, sent in the User-Agent as Wikimedia's User-Agent policy requires (clients without one may be blocked). Start-up warns in production when neither it nor `PUBLIC_URL` is set.",
  },
  {
    name: 'FFMPEG_PATH',
    default: '(system ffmpeg, else the one inside @ffmpeg-installer/ffmpeg)',
    description: 'ffmpeg binary used to assemble videos.',
  },
  {
    name: 'FFPROBE_PATH',
    default: '(system ffprobe, else the one inside @ffprobe-installer/ffprobe)',
    description: 'ffprobe binary used to measure audio and video.',
  },
  {
    name: 'RENDER_PRESET',
    default: 'ultrafast',
    description:
      'x264 preset for the final render: ultrafast renders at CRF 25 with deblocking and CABAC put back, veryfast and slower at CRF 21 (slower presets give smaller files, not better pictures).',
  },
];

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));
const url = (fallback?: string) =>
  optionalText.pipe(z.url({ message: 'must be a URL' }).optional()).transform((value) => value ?? fallback);

const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

const envSchema = z.object({
  STORY_PROVIDER: optionalText.pipe(z.enum(['offline', 'openai'], { message: 'must be offline or openai' }).optional()),
  OPENAI_BASE_URL: url('https://api.openai.com/v1'),
  OPENAI_API_KEY: optionalText,
  OPENAI_API_KEY_HEADER: optionalText.pipe(z.enum(['bearer', 'api-key'], { message: 'must be bearer or api-key' }).optional()),
  OPENAI_API_VERSION: optionalText,
  OPENAI_MODEL: optionalText,
  IMAGE_PROVIDER: optionalText.pipe(
    z.enum(['offline', 'openai', 'pexels', 'unsplash'], { message: 'must be offline, openai, pexels or unsplash' }).optional(),
  ),
  PEXELS_API_KEY: optionalText,
  // The usual spellings, case-insensitively (true/false, 1/0, yes/no, on/off): zod's stringbool.
  PEXELS_VIDEOS: optionalText.pipe(z.stringbool({ error: 'must be true or false (1/0, yes/no and on/off are accepted too)' }).optional()),
  UNSPLASH_ACCESS_KEY: optionalText,
  IMAGE_API_BASE_URL: url(),
  IMAGE_API_KEY: optionalText,
  OPENAI_IMAGE_MODEL: optionalText,
  VOICE_PROVIDER: optionalText.pipe(
    z.enum(['neural', 'offline', 'azure', 'elevenlabs'], { message: 'must be neural, offline, azure or elevenlabs' }).optional(),
  ),
  VOICE_MODEL_URL: optionalText.pipe(
    z
      .string()
      .refine((value) => value === 'off' || URL.canParse(value), 'must be a URL or off')
      .optional(),
  ),
  VOICE_MODEL_MANIFEST: optionalText,
  DATA_DIR: optionalText,
  AZURE_SPEECH_KEY: optionalText,
  AZURE_SPEECH_REGION: optionalText,
  AZURE_SPEECH_ENDPOINT: url(),
  ELEVENLABS_API_KEY: optionalText,
  ELEVENLABS_MODEL_ID: optionalText,
  ELEVENLABS_BASE_URL: url(),
  RESEARCH_PROVIDER: optionalText.pipe(z.enum(['wikipedia', 'off'], { message: 'must be wikipedia or off' }).optional()),
  WIKIPEDIA_API_URL: optionalText
    .pipe(
      z
        .string()
        .refine((value) => URL.canParse(value.replaceAll('{lang}', 'en')), 'must be a URL')
        .optional(),
    )
    .transform((value) => value ?? 'https://{lang}.wikipedia.org/w/api.php'),
  COMMONS_API_URL: url('https://commons.wikimedia.org/w/api.php'),
  RESEARCH_MEDIA_HOSTS: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => value.split(',').every((host) => /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:]+\](?::\d{1,5})?$/i.test(host.trim())),
        'must be comma-separated host names, each with an optional :port',
      )
      .optional(),
  ),
  // The contact address Wikimedia asks every client to name: WIKIMEDIA_CONTACT, else the server's own address.
  WIKIMEDIA_CONTACT: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => /^[^\s@()<>;]+@[^\s@()<>;]+\.[^\s@()<>;]+$/.test(value) || /^https?:\/\/[^\s()<>;]+$/i.test(value),
        'must be an e-mail address or an http(s) URL',
      )
      .optional(),
  ),
  PUBLIC_URL: optionalText,
  PORT: optionalText,
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  RENDER_PRESET: optionalText.pipe(z.enum(X264_PRESETS, { message: `must be one of ${X264_PRESETS.join(', ')}` }).optional()),
});

export interface OpenAiConnectionConfig {
  baseUrl: string;
  apiKey?: string;
  apiKeyHeader: 'bearer' | 'api-key';
  apiVersion?: string;
}

export type OpenAiProviderConfig = { provider: 'openai'; model: string } & OpenAiConnectionConfig;
export type StoryProviderConfig = { provider: 'offline' } | OpenAiProviderConfig;
export type ImageProviderConfig =
  | { provider: 'offline' }
  | OpenAiProviderConfig
  | { provider: 'pexels'; apiKey: string; videos: boolean }
  | { provider: 'unsplash'; apiKey: string };

export interface PipelineConfig {
  /** The default story writer (STORY_PROVIDER). */
  story: StoryProviderConfig;
  /** The default image provider (IMAGE_PROVIDER). */
  images: ImageProviderConfig;
  /**
   * Every story/image provider this environment has credentials for, default included (offline is
   * always there): an admin may switch to any of them while the server runs.
   */
  storyChoices?: StoryProviderConfig[];
  imageChoices?: ImageProviderConfig[];
  voice: {
    provider: 'neural' | 'offline' | 'azure' | 'elevenlabs';
    /** The natural voices' model (VOICE_MODEL_URL, VOICE_MODEL_MANIFEST, DATA_DIR/models). */
    neural?: NeuralVoiceConfig;
    azure?: { key: string; region?: string; endpoint?: string };
    elevenlabs?: { apiKey: string; modelId: string; baseUrl?: string };
  };
  /** RESEARCH_PROVIDER=wikipedia (null when off). */
  research: ResearchConfig | null;
  ffmpegPath?: string;
  ffprobePath?: string;
  renderPreset: (typeof X264_PRESETS)[number];
}

export interface NeuralVoiceConfig {
  modelsDir: string;
  /** null when VOICE_MODEL_URL=off. */
  modelUrl: string | null;
  /**
   * Whether the server may fetch the model in the background at start: VOICE_MODEL_URL set, or a
   * run that is neither a test (VITEST, NODE_ENV=test) nor CI, so test runs never reach the internet.
   */
  downloadAtStart: boolean;
  manifestPath?: string;
}

export interface ResearchConfig {
  wikipediaApiUrl: string;
  commonsApiUrl: string;
  mediaHosts: string[];
  /** "Reelsmith/0.1.0 (https://studio.example)", as Wikimedia's User-Agent policy asks. */
  userAgent: string;
  /** False when neither WIKIMEDIA_CONTACT nor PUBLIC_URL names the operator: start-up warns in production. */
  hasContact: boolean;
}

/** The User-Agent Wikimedia's policy asks for: the client, its version and how to reach its operator. */
export function wikimediaUserAgent(contact: string | undefined): string {
  // Without a contact the agent says so plainly rather than naming an address nobody can reach (localhost).
  return `Reelsmith/${REELSMITH_VERSION} (${contact ?? 'no operator contact set; see WIKIMEDIA_CONTACT'})`;
}

/** The version Reelsmith names itself with (the packages share the release's version). */
const REELSMITH_VERSION = '0.1.0';

export class PipelineConfigError extends Error {
  override name = 'PipelineConfigError';
}

/** Reads the pipeline's environment once; a bad or missing variable is named in the error. */
export function loadPipelineConfig(env: Record<string, string | undefined> = process.env): PipelineConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new PipelineConfigError(`Invalid pipeline configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const openAi: OpenAiConnectionConfig = {
    baseUrl: e.OPENAI_BASE_URL!,
    apiKeyHeader: e.OPENAI_API_KEY_HEADER ?? 'bearer',
    ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
    ...(e.OPENAI_API_VERSION ? { apiVersion: e.OPENAI_API_VERSION } : {}),
  };
  const isLocalServer = (base: string) => /^https?:\/\/(localhost|127\.|\[::1\])/.test(base);

  const storyProvider = e.STORY_PROVIDER ?? 'offline';
  if (storyProvider === 'openai' && !openAi.apiKey && !isLocalServer(openAi.baseUrl)) {
    throw new PipelineConfigError('STORY_PROVIDER=openai needs OPENAI_API_KEY (only a local server such as Ollama runs without one).');
  }
  const imageConnection: OpenAiConnectionConfig = {
    ...openAi,
    ...(e.IMAGE_API_BASE_URL ? { baseUrl: e.IMAGE_API_BASE_URL } : {}),
    ...(e.IMAGE_API_KEY ? { apiKey: e.IMAGE_API_KEY } : {}),
  };
  const imageProvider = e.IMAGE_PROVIDER ?? 'offline';
  if (imageProvider === 'openai' && !imageConnection.apiKey && !isLocalServer(imageConnection.baseUrl)) {
    throw new PipelineConfigError('IMAGE_PROVIDER=openai needs IMAGE_API_KEY or OPENAI_API_KEY.');
  }

  const azure =
    e.AZURE_SPEECH_KEY && (e.AZURE_SPEECH_REGION || e.AZURE_SPEECH_ENDPOINT)
      ? {
          key: e.AZURE_SPEECH_KEY,
          ...(e.AZURE_SPEECH_REGION ? { region: e.AZURE_SPEECH_REGION } : {}),
          ...(e.AZURE_SPEECH_ENDPOINT ? { endpoint: e.AZURE_SPEECH_ENDPOINT } : {}),
        }
      : undefined;
  if (e.AZURE_SPEECH_KEY && !azure)
    throw new PipelineConfigError('AZURE_SPEECH_KEY is set but AZURE_SPEECH_REGION (or AZURE_SPEECH_ENDPOINT) is missing.');
  const elevenlabs = e.ELEVENLABS_API_KEY
    ? {
        apiKey: e.ELEVENLABS_API_KEY,
        modelId: e.ELEVENLABS_MODEL_ID ?? 'eleven_multilingual_v2',
        ...(e.ELEVENLABS_BASE_URL ? { baseUrl: e.ELEVENLABS_BASE_URL } : {}),
      }
    : undefined;
  const voiceProvider = e.VOICE_PROVIDER ?? 'neural';
  const modelUrl = e.VOICE_MODEL_URL === 'off' ? null : (e.VOICE_MODEL_URL ?? 'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX');
  // The environment passed may be a test's own small one (a server built in a vitest process with
  // `env: {}`): the process's own environment says it is a test run too.
  const isTestOrCi = (vars: Record<string, string | undefined>) =>
    Boolean(vars.VITEST) || vars.NODE_ENV === 'test' || Boolean(vars.CI && vars.CI !== 'false');
  const testOrCi = isTestOrCi(env) || isTestOrCi(process.env);
  const neural: NeuralVoiceConfig = {
    modelsDir: resolvePath(e.DATA_DIR ?? './data', 'models'),
    modelUrl,
    downloadAtStart: modelUrl !== null && (e.VOICE_MODEL_URL !== undefined || !testOrCi),
    ...(e.VOICE_MODEL_MANIFEST ? { manifestPath: resolvePath(e.VOICE_MODEL_MANIFEST) } : {}),
  };
  if (voiceProvider === 'azure' && !azure)
    throw new PipelineConfigError('VOICE_PROVIDER=azure needs AZURE_SPEECH_KEY and AZURE_SPEECH_REGION.');
  if (voiceProvider === 'elevenlabs' && !elevenlabs) throw new PipelineConfigError('VOICE_PROVIDER=elevenlabs needs ELEVENLABS_API_KEY.');

  const openAiStory: OpenAiProviderConfig = { provider: 'openai', model: e.OPENAI_MODEL ?? 'gpt-4o-mini', ...openAi };
  const openAiImages: OpenAiProviderConfig = { provider: 'openai', model: e.OPENAI_IMAGE_MODEL ?? 'gpt-image-1', ...imageConnection };
  // The same rule as for the default: a key, or a local server that needs none.
  const storyUsable = Boolean(openAi.apiKey) || isLocalServer(openAi.baseUrl);
  const imagesUsable = Boolean(imageConnection.apiKey) || isLocalServer(imageConnection.baseUrl);

  const stockLibraries: ImageProviderConfig[] = [
    ...(e.PEXELS_API_KEY ? [{ provider: 'pexels' as const, apiKey: e.PEXELS_API_KEY, videos: e.PEXELS_VIDEOS !== false }] : []),
    ...(e.UNSPLASH_ACCESS_KEY ? [{ provider: 'unsplash' as const, apiKey: e.UNSPLASH_ACCESS_KEY }] : []),
  ];
  if (
    (imageProvider === 'pexels' || imageProvider === 'unsplash') &&
    !stockLibraries.some((library) => library.provider === imageProvider)
  ) {
    throw new PipelineConfigError(
      `IMAGE_PROVIDER=${imageProvider} needs ${imageProvider === 'pexels' ? 'PEXELS_API_KEY' : 'UNSPLASH_ACCESS_KEY'}.`,
    );
  }
  const defaultImages: ImageProviderConfig =
    imageProvider === 'openai'
      ? openAiImages
      : (stockLibraries.find((library) => library.provider === imageProvider) ?? { provider: 'offline' });

  return {
    story: storyProvider === 'openai' ? openAiStory : { provider: 'offline' },
    images: defaultImages,
    storyChoices: [{ provider: 'offline' }, ...(storyUsable ? [openAiStory] : [])],
    imageChoices: [{ provider: 'offline' }, ...(imagesUsable ? [openAiImages] : []), ...stockLibraries],
    voice: { provider: voiceProvider, neural, ...(azure ? { azure } : {}), ...(elevenlabs ? { elevenlabs } : {}) },
    research:
      e.RESEARCH_PROVIDER === 'off'
        ? null
        : {
            wikipediaApiUrl: e.WIKIPEDIA_API_URL,
            commonsApiUrl: e.COMMONS_API_URL!,
            mediaHosts: (e.RESEARCH_MEDIA_HOSTS ?? 'upload.wikimedia.org,thumb.wikimedia.org')
              .split(',')
              .map((host) => host.trim().toLowerCase()),
            userAgent: wikimediaUserAgent(e.WIKIMEDIA_CONTACT ?? e.PUBLIC_URL),
            hasContact: Boolean(e.WIKIMEDIA_CONTACT ?? e.PUBLIC_URL),
          },
    ...(e.FFMPEG_PATH ? { ffmpegPath: e.FFMPEG_PATH } : {}),
    ...(e.FFPROBE_PATH ? { ffprobePath: e.FFPROBE_PATH } : {}),
    renderPreset: e.RENDER_PRESET ?? 'ultrafast',
  };
}
