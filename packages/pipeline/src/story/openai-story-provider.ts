import { ProviderError, throwIfAborted } from '../errors.js';
import {
  classifyOpenAiError,
  openAiJsonPost,
  openAiModelsHealth,
  type OpenAiCompatibleConnection,
} from '../providers/http-openai-compatible.js';
import { parseJsonBody, providerSays, requestWithRetry } from '../providers/http.js';
import type { Story, StoryProvider, StoryRequest, StorySource } from '../providers/types.js';
import {
  buildSourceStoryMessages,
  buildStoryMessages,
  correctionMessage,
  SOURCE_PROMPT_MAX_WORDS,
  sourceCorrectionMessage,
  sourceStoryJsonSchema,
  sourceStorySchema,
  storyJsonSchema,
  storySchema,
} from './openai-story-prompt.js';
import { writtenPostFrom } from './post-kit.js';
import { needsTranslation } from './source-language.js';
import { tellSourceApart } from './told-apart.js';
import { splitSentences } from './source-text.js';
import { countNarrationWords } from './story-budget.js';

export interface OpenAiStoryProviderOptions extends OpenAiCompatibleConnection {
  model: string;
}

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };
type ResponseFormat =
  { type: 'json_schema'; json_schema: { name: string; strict: true; schema: Record<string, unknown> } } | { type: 'json_object' };

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
      ...openAiJsonPost(options, 'chat/completions'),
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

  async function completeWithFallback(messages: ChatMessage[], schema: Record<string, unknown>, signal?: AbortSignal) {
    if (jsonSchemaSupported) {
      try {
        return await complete(messages, { type: 'json_schema', json_schema: { name: 'story', strict: true, schema } }, signal);
      } catch (error) {
        if (!rejectsJsonSchema(error)) throw error;
        jsonSchemaSupported = false;
      }
    }
    return complete(messages, { type: 'json_object' }, signal);
  }

  /** Asks, checks the answer, and asks once more with what was wrong; a second unusable answer fails the job. */
  async function converse(
    messages: ChatMessage[],
    schema: Record<string, unknown>,
    check: (content: string, finishReason: string | undefined) => Checked,
    correction: (problem: string) => string,
    signal?: AbortSignal,
  ): Promise<Story> {
    let problem = '';
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      throwIfAborted(signal);
      const choice = await completeWithFallback(messages, schema, signal);
      if (choice.refusal) {
        throw new ProviderError(
          `The story service refused to write this story${providerSays({ message: choice.refusal }, secrets) || '.'} Try rephrasing the topic.`,
          PROVIDER,
          false,
        );
      }
      const checked = check(choice.content, choice.finishReason);
      if (checked.story) return checked.story;
      problem = checked.problem;
      messages.push({ role: 'assistant', content: choice.content });
      messages.push({ role: 'user', content: correction(problem) });
    }
    throw new ProviderError(
      `The story service returned an unusable story twice (${problem}). Try again, or choose another story model.`,
      PROVIDER,
      false,
    );
  }

  /**
   * A script in the narration's language is told verbatim, without the model; an article, or a
   * script to translate, goes to the model as numbered sentences it must keep to.
   */
  function writeFromSource(request: StoryRequest, source: StorySource, signal?: AbortSignal): Promise<Story> {
    const translating = needsTranslation(source.language, request.language);
    if (source.kind === 'script' && !translating) return tellSourceApart(request, source, PROVIDER, signal);
    const sentences = promptSentences(source, source.language ?? request.language);
    return converse(
      buildSourceStoryMessages(request, sentences, source.kind, source.language ?? null),
      sourceStoryJsonSchema(request.sceneCount),
      (content, finishReason) => checkSourceStory(content, finishReason, request.sceneCount, sentences, request.language),
      (problem) => sourceCorrectionMessage(problem, request.sceneCount, sentences.length),
      signal,
    );
  }

  return {
    name: PROVIDER,

    async writeStory(request: StoryRequest, signal?: AbortSignal): Promise<Story> {
      if (request.source) return writeFromSource(request, request.source, signal);
      return converse(
        buildStoryMessages(request),
        storyJsonSchema(request.sceneCount),
        (content, finishReason) => checkStory(content, finishReason, request.sceneCount, request.language),
        (problem) => correctionMessage(problem, request.sceneCount),
        signal,
      );
    },

    health(signal?: AbortSignal) {
      return openAiModelsHealth(PROVIDER, 'story', options, options.model, signal);
    },
  };
}

/** The source's sentences as the model sees them: a script whole, an article's prose up to the prompt's word cap. */
function promptSentences(source: StorySource, language: string): string[] {
  const all = splitSentences(source.text, language);
  if (source.kind === 'script') return all.map((sentence) => sentence.text);
  const sentences: string[] = [];
  let words = 0;
  for (const sentence of all) {
    if (sentence.fragment) continue;
    words += countNarrationWords(sentence.text, language);
    if (words > SOURCE_PROMPT_MAX_WORDS && sentences.length > 0) break;
    sentences.push(sentence.text);
  }
  return sentences;
}

type Checked = { story: Story; problem?: undefined } | { story?: undefined; problem: string };

function rejectsJsonSchema(error: unknown): boolean {
  return error instanceof ProviderError && error.status === 400 && /response_format|json_schema|structured output/i.test(error.message);
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
function checkStory(content: string, finishReason: string | undefined, sceneCount: number, language: string): Checked {
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
  // The model's post when it keeps the rules; otherwise none, and the video gets the one built offline.
  const post = writtenPostFrom((json as { post?: unknown }).post, language);
  return {
    story: {
      title: parsed.data.title.trim(),
      scenes: parsed.data.scenes.map((scene) => ({
        narration: scene.narration.trim(),
        imagePrompt: scene.imagePrompt.trim(),
      })),
      ...(post ? { post } : {}),
    },
  };
}

/** Validates a source-told answer: the story's checks, and every scene naming source sentences that exist. */
function checkSourceStory(
  content: string,
  finishReason: string | undefined,
  sceneCount: number,
  sentences: readonly string[],
  language: string,
): Checked {
  const checked = checkStory(content, finishReason, sceneCount, language);
  if (!checked.story) return checked;
  const parsed = sourceStorySchema(sceneCount).safeParse(JSON.parse(stripCodeFence(content)));
  if (!parsed.success)
    return {
      problem: parsed.error.issues
        .slice(0, 4)
        .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
        .join('; '),
    };
  const scenes = parsed.data.scenes;
  for (const [index, scene] of scenes.entries()) {
    const bad = scene.sourceSentences.find((number) => number < 1 || number > sentences.length);
    if (scene.sourceSentences.length === 0) return { problem: `scenes.${index}.sourceSentences is empty` };
    if (bad !== undefined)
      return { problem: `scenes.${index}.sourceSentences has ${bad}, but the source sentences are numbered 1 to ${sentences.length}` };
  }
  return {
    story: {
      ...checked.story,
      scenes: checked.story.scenes.map((scene, index) => ({
        ...scene,
        sourceSentences: [...new Set(scenes[index]!.sourceSentences)].sort((a, b) => a - b).map((number) => sentences[number - 1]!),
      })),
    },
  };
}

/** Local models often wrap JSON in a markdown fence even when asked not to. */
function stripCodeFence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return fenced?.[1] ?? content;
}
