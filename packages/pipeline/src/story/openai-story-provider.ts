import { ProviderError, throwIfAborted } from '../errors.js';
import {
  classifyOpenAiError,
  openAiHeaders,
  openAiModelsHealth,
  openAiUrl,
  type OpenAiCompatibleConnection,
} from '../providers/http-openai-compatible.js';
import { parseJsonBody, providerSays, requestWithRetry } from '../providers/http.js';
import type { Story, StoryProvider, StoryRequest } from '../providers/types.js';
import { buildStoryMessages, correctionMessage, storyJsonSchema, storySchema } from './openai-story-prompt.js';

export interface OpenAiStoryProviderOptions extends OpenAiCompatibleConnection {
  model: string;
}

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };
type ResponseFormat =
  | { type: 'json_schema'; json_schema: { name: string; strict: true; schema: Record<string, unknown> } }
  | { type: 'json_object' };

const PROVIDER = 'openai';
const STORY_TIMEOUT_MS = 180_000;

/**
 * Story writer over any OpenAI-compatible chat completions API. The model is held to a strict JSON
 * schema; an unusable answer gets one corrective retry, then the job fails with a final error.
 */
export function createOpenAiStoryProvider(options: OpenAiStoryProviderOptions): StoryProvider {
  const secrets = options.apiKey ? [options.apiKey] : [];
  // Servers without json_schema support (older vLLM, some OpenRouter routes) still take json_object.
  let jsonSchemaSupported = true;

  async function complete(messages: ChatMessage[], format: ResponseFormat, signal?: AbortSignal) {
    const result = await requestWithRetry({
      provider: PROVIDER,
      service: 'story',
      url: openAiUrl(options, 'chat/completions'),
      method: 'POST',
      headers: openAiHeaders(options, true),
      body: JSON.stringify({ model: options.model, messages, response_format: format }),
      signal,
      fetch: options.fetch,
      retryDelaysMs: options.retryDelaysMs,
      timeoutMs: options.timeoutMs ?? STORY_TIMEOUT_MS,
      secrets,
      classifyError: classifyOpenAiError(PROVIDER, 'story'),
    });
    return readChoice(parseJsonBody(result, PROVIDER, 'story'));
  }

  async function completeWithFallback(messages: ChatMessage[], sceneCount: number, signal?: AbortSignal) {
    if (jsonSchemaSupported) {
      try {
        return await complete(messages, jsonSchemaFormat(sceneCount), signal);
      } catch (error) {
        if (!rejectsJsonSchema(error)) throw error;
        jsonSchemaSupported = false;
      }
    }
    return complete(messages, { type: 'json_object' }, signal);
  }

  return {
    name: PROVIDER,

    async writeStory(request: StoryRequest, signal?: AbortSignal): Promise<Story> {
      const messages: ChatMessage[] = buildStoryMessages(request);
      let problem = '';
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        throwIfAborted(signal);
        const choice = await completeWithFallback(messages, request.sceneCount, signal);
        if (choice.refusal) {
          throw new ProviderError(
            `The story service refused to write this story${providerSays({ message: choice.refusal }, secrets) || '.'} Try rephrasing the topic.`,
            PROVIDER,
            false,
          );
        }
        const checked = checkStory(choice.content, choice.finishReason, request.sceneCount);
        if (checked.story) return checked.story;
        problem = checked.problem;
        messages.push({ role: 'assistant', content: choice.content });
        messages.push({ role: 'user', content: correctionMessage(problem, request.sceneCount) });
      }
      throw new ProviderError(
        `The story service returned an unusable story twice (${problem}). Try again, or choose another story model.`,
        PROVIDER,
        false,
      );
    },

    health(signal?: AbortSignal) {
      return openAiModelsHealth(PROVIDER, 'story', options, options.model, signal);
    },
  };
}

function jsonSchemaFormat(sceneCount: number): ResponseFormat {
  return { type: 'json_schema', json_schema: { name: 'story', strict: true, schema: storyJsonSchema(sceneCount) } };
}

function rejectsJsonSchema(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    error.status === 400 &&
    /response_format|json_schema|structured output/i.test(error.message)
  );
}

interface Choice {
  content: string;
  refusal?: string;
  finishReason?: string;
}

function readChoice(body: unknown): Choice {
  const choice = (body as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }> })
    ?.choices?.[0];
  if (!choice?.message) {
    throw new ProviderError('The story service sent a response without a message; try again later', PROVIDER, true);
  }
  const { content, refusal } = choice.message;
  return {
    content: typeof content === 'string' ? content : '',
    refusal: typeof refusal === 'string' && refusal.trim() ? refusal : undefined,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined,
  };
}

/** Validates the model's answer; `problem` is phrased for the model's correction and the final error. */
function checkStory(
  content: string,
  finishReason: string | undefined,
  sceneCount: number,
): { story: Story; problem?: undefined } | { story?: undefined; problem: string } {
  if (finishReason === 'length') return { problem: 'the answer was cut off before the JSON was complete' };
  let json: unknown;
  try {
    json = JSON.parse(stripCodeFence(content));
  } catch {
    return { problem: content.trim() ? 'the answer was not valid JSON' : 'the answer was empty' };
  }
  const parsed = storySchema(sceneCount).safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 4).map((issue) => {
      const where = issue.path.join('.') || 'answer';
      if (issue.code === 'too_small' || issue.code === 'too_big') {
        const got = Array.isArray((json as { scenes?: unknown }).scenes) ? (json as { scenes: unknown[] }).scenes.length : 0;
        if (where === 'scenes') return `it had ${got} scenes instead of exactly ${sceneCount}`;
      }
      return `${where}: ${issue.message}`;
    });
    return { problem: issues.join('; ') };
  }
  return {
    story: {
      title: parsed.data.title.trim(),
      scenes: parsed.data.scenes.map((scene) => ({
        narration: scene.narration.trim(),
        imagePrompt: scene.imagePrompt.trim(),
      })),
    },
  };
}

/** Local models often wrap JSON in a markdown fence even when asked not to. */
function stripCodeFence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return fenced?.[1] ?? content;
}
