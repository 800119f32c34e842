import { randomUUID } from 'node:crypto';
import { fakePng } from './fake-media.js';
import { startFakeHttpServer, type FakeServer, type RecordedRequest, type ScriptedResponse } from './fake-http-server.js';

export interface FakeOpenAiServerOptions {
  /** When set, requests must carry it (Authorization: Bearer, or api-key for Azure OpenAI). */
  apiKey?: string;
  apiKeyHeader?: 'bearer' | 'api-key';
  /** Listed by GET /models. */
  models?: string[];
  /** How /images/generations returns the picture; 'url' serves it from this server. */
  imageResponse?: 'b64_json' | 'url';
  /**
   * Story the default chat completion returns (given the scene count and the messages' text); by
   * default one is made up with the requested scene count.
   */
  story?: (
    sceneCount: number,
    prompt: string,
  ) => {
    title: string;
    scenes: Array<{ narration: string; imagePrompt: string; sourceSentences?: number[] }>;
    /** What a model writes for the post when the schema asks for one (any shape, to test the checks). */
    post?: unknown;
  };
}

export interface FakeOpenAiServer extends FakeServer {
  /** Base URL to give adapters, ending in /v1 like the real API. */
  baseUrl: string;
}

/**
 * An OpenAI-compatible API speaking the real wire format: /v1/chat/completions (with structured
 * output checks), /v1/images/generations and /v1/models, OpenAI's error bodies included.
 */
export async function startFakeOpenAiServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const models = options.models ?? ['gpt-4o-mini', 'gpt-image-1'];
  const images = new Map<string, Buffer>();

  const server = await startFakeHttpServer(async (request) => {
    const { pathname } = request.url;
    if (request.method === 'GET' && pathname.startsWith('/v1/files/')) {
      const image = images.get(pathname.slice('/v1/files/'.length));
      return image
        ? { status: 200, headers: { 'Content-Type': 'image/png' }, body: image }
        : openAiError(404, 'File not found', 'invalid_request_error', null);
    }
    const authFailure = checkAuth(request, options);
    if (authFailure) return authFailure;

    if (request.method === 'GET' && pathname === '/v1/models') {
      return {
        status: 200,
        body: { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_715_367_049, owned_by: 'system' })) },
      };
    }
    if (request.method === 'POST' && pathname === '/v1/chat/completions') return chatCompletions(request, options);
    if (request.method === 'POST' && pathname === '/v1/images/generations') {
      return imageGenerations(request, options, images, server.url);
    }
    return openAiError(404, `Invalid URL (${request.method} ${pathname})`, 'invalid_request_error', null);
  });

  return { ...server, baseUrl: `${server.url}/v1` };
}

/** OpenAI's error body: {"error": {"message", "type", "param", "code"}}. */
export function openAiError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers?: Record<string, string>,
): ScriptedResponse {
  return { status, headers, body: { error: { message, type, param: null, code } } };
}

/** A chat completion whose assistant message has this content, as the real API returns it. */
export function chatCompletionResponse(
  content: string | null,
  extra: { finishReason?: string; refusal?: string; model?: string } = {},
): ScriptedResponse {
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: extra.model ?? 'gpt-4o-mini-2024-07-18',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: extra.refusal ?? null, annotations: [] },
          logprobs: null,
          finish_reason: extra.finishReason ?? 'stop',
        },
      ],
      usage: { prompt_tokens: 412, completion_tokens: 388, total_tokens: 800 },
      system_fingerprint: 'fp_fake',
    },
  };
}

function checkAuth(request: RecordedRequest, options: FakeOpenAiServerOptions): ScriptedResponse | undefined {
  if (!options.apiKey) return undefined;
  const given =
    options.apiKeyHeader === 'api-key' ? request.headers['api-key'] : /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (given === undefined || given === '') {
    return openAiError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      'invalid_request_error',
      null,
    );
  }
  if (given !== options.apiKey) {
    const masked = `${String(given).slice(0, 3)}*****${String(given).slice(-4)}`;
    return openAiError(
      401,
      `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_request_error',
      'invalid_api_key',
    );
  }
  return undefined;
}

interface ChatBody {
  model?: unknown;
  messages?: Array<{ role?: unknown; content?: unknown }>;
  response_format?: { type?: unknown; json_schema?: { name?: unknown; strict?: unknown; schema?: Record<string, unknown> } };
}

function chatCompletions(request: RecordedRequest, options: FakeOpenAiServerOptions): ScriptedResponse {
  let body: ChatBody;
  try {
    body = request.json<ChatBody>();
  } catch {
    return openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
  }
  if (typeof body.model !== 'string') {
    return openAiError(400, 'you must provide a model parameter', 'invalid_request_error', null);
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return openAiError(400, "Missing required parameter: 'messages'.", 'invalid_request_error', 'missing_required_parameter');
  }
  const format = body.response_format;
  if (format?.type === 'json_schema') {
    const name = format.json_schema?.name;
    const schema = format.json_schema?.schema;
    if (typeof name !== 'string' || !schema) {
      return openAiError(
        400,
        "Missing required parameter: 'response_format.json_schema.name'.",
        'invalid_request_error',
        'missing_required_parameter',
      );
    }
    if (format.json_schema?.strict === true) {
      const problem = strictSchemaProblem(schema, '()');
      if (problem) {
        return openAiError(400, `Invalid schema for response_format '${name}': ${problem}`, 'invalid_request_error', 'invalid_json_schema');
      }
    }
  }
  const sceneCount = requestedSceneCount(body);
  const prompt = body.messages.map((message) => String(message.content ?? '')).join('\n');
  const story = options.story?.(sceneCount, prompt) ?? defaultStory(sceneCount, asksForPost(body));
  return chatCompletionResponse(JSON.stringify(story), { model: body.model });
}

/** The strict-mode rules OpenAI enforces on every object: additionalProperties false, every property required. */
function strictSchemaProblem(schema: Record<string, unknown>, context: string): string | undefined {
  if (schema.type === 'object') {
    if (schema.additionalProperties !== false) {
      return `In context=${context}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const key of Object.keys(properties)) {
      if (!required.includes(key)) {
        return `In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${key}'.`;
      }
      const inner = strictSchemaProblem(properties[key] ?? {}, `('properties', '${key}')`);
      if (inner) return inner;
    }
  }
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    return strictSchemaProblem(schema.items as Record<string, unknown>, `${context}, 'items'`);
  }
  return undefined;
}

function requestedSceneCount(body: ChatBody): number {
  const scenes = (body.response_format?.json_schema?.schema?.properties as Record<string, { minItems?: unknown }> | undefined)?.scenes;
  if (typeof scenes?.minItems === 'number') return scenes.minItems;
  const prompt = body.messages?.map((message) => String(message.content ?? '')).join('\n') ?? '';
  const match = /exactly (\d+) scenes/i.exec(prompt);
  return match ? Number(match[1]) : 5;
}

/** Whether the structured output's schema (or, without one, the prompt) asks for a post beside the story. */
function asksForPost(body: ChatBody): boolean {
  const properties = body.response_format?.json_schema?.schema?.properties as Record<string, unknown> | undefined;
  if (properties) return 'post' in properties;
  return body.messages?.some((message) => String(message.content ?? '').includes('"post"')) ?? false;
}

function defaultStory(sceneCount: number, withPost: boolean) {
  return {
    title: 'The Lighthouse Keeper',
    ...(withPost
      ? {
          post: {
            title: 'The keeper who never let the light go out',
            description: 'A lighthouse keeper climbs the stairs through a night of storm. The light must not go out.',
            hashtags: ['#Lighthouse', '#StormNight', '#KeeperStories', '#lighthouse'],
          },
        }
      : {}),
    scenes: Array.from({ length: sceneCount }, (_, index) => ({
      narration: `Scene ${index + 1}: the keeper climbed the winding stairs once more, listening to the storm outside.`,
      imagePrompt: `A lonely lighthouse on a cliff at night, storm clouds, scene ${index + 1}, cinematic lighting, no text`,
    })),
  };
}

async function imageGenerations(
  request: RecordedRequest,
  options: FakeOpenAiServerOptions,
  images: Map<string, Buffer>,
  serverUrl: string,
): Promise<ScriptedResponse> {
  let body: { model?: unknown; prompt?: unknown; size?: unknown; response_format?: unknown };
  try {
    body = request.json();
  } catch {
    return openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
  }
  if (typeof body.prompt !== 'string' || body.prompt.length === 0) {
    return openAiError(400, "Missing required parameter: 'prompt'.", 'invalid_request_error', 'missing_required_parameter');
  }
  const model = typeof body.model === 'string' ? body.model : 'dall-e-2';
  if (model.startsWith('gpt-image') && body.response_format !== undefined) {
    return openAiError(400, "Unknown parameter: 'response_format'.", 'invalid_request_error', 'unknown_parameter');
  }
  const size = typeof body.size === 'string' ? body.size : '1024x1024';
  const allowed = model.startsWith('gpt-image') ? ['1024x1024', '1024x1536', '1536x1024', 'auto'] : ['1024x1024', '1024x1792', '1792x1024'];
  if (!allowed.includes(size)) {
    return openAiError(
      400,
      `Invalid value: '${size}'. Supported values are: ${allowed.map((value) => `'${value}'`).join(', ')}.`,
      'invalid_request_error',
      'invalid_value',
    );
  }
  const [width, height] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
  const png = await fakePng(width, height);
  const created = Math.floor(Date.now() / 1000);
  const wantsUrl = options.imageResponse === 'url' || (model.startsWith('dall-e') && body.response_format !== 'b64_json');
  if (wantsUrl) {
    const id = `${randomUUID()}.png`;
    images.set(id, png);
    return { status: 200, body: { created, data: [{ url: `${serverUrl}/v1/files/${id}`, revised_prompt: body.prompt }] } };
  }
  return {
    status: 200,
    body: {
      created,
      data: [{ b64_json: png.toString('base64') }],
      usage: { total_tokens: 4_200, input_tokens: 50, output_tokens: 4_150, input_tokens_details: { text_tokens: 50, image_tokens: 0 } },
    },
  };
}
