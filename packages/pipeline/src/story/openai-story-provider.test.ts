import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import type { StoryRequest } from '../providers/types.js';
import { chatCompletionResponse, openAiError, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { loadPipelineConfig } from '../pipeline-config.js';
import { createProviders } from '../provider-registry.js';
import { closedAfterTest, expectCancelledMidRequest, failureAfterThreeAttempts, rejectionOf } from '../testing/provider-test-kit.js';
import { createOpenAiStoryProvider } from './openai-story-provider.js';

const API_KEY = 'sk-test-story-key-0123456789';

const request: StoryRequest = {
  topic: 'The lighthouse that never went dark',
  style: 'mysterious',
  language: 'ja',
  durationSeconds: 30,
  visualStyle: 'dark horror',
  customPrompt: 'Mention the year 1893.',
  sceneCount: 5,
  targetWords: 75,
};

async function setup(options: Parameters<typeof startFakeOpenAiServer>[0] = {}) {
  const fake = closedAfterTest(await startFakeOpenAiServer({ apiKey: API_KEY, ...options }));
  const provider = createOpenAiStoryProvider({ baseUrl: fake.baseUrl, apiKey: API_KEY, model: 'gpt-4o-mini', retryDelaysMs: [5, 5] });
  return { fake, provider };
}

function storyJson(sceneCount: number): string {
  return JSON.stringify({
    title: 'Light',
    scenes: Array.from({ length: sceneCount }, (_, index) => ({ narration: `Line ${index}`, imagePrompt: `Picture ${index}` })),
  });
}

type ChatRequestBody = {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format: { type: string; json_schema?: { name: string; strict: boolean; schema: Record<string, unknown> } };
};

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe('OpenAI-compatible story provider', () => {
  it('asks for a strict JSON-schema story and returns it', async () => {
    const { fake, provider } = await setup();
    const story = await provider.writeStory(request);

    expect(provider.name).toBe('openai');
    expect(story.scenes).toHaveLength(5);
    expect(story.title).toBe('The Lighthouse Keeper');
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
    const body = sent.json<ChatRequestBody>();
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema).toMatchObject({ name: 'story', strict: true });
    const schema = body.response_format.json_schema!.schema as Record<string, unknown> & { properties: { scenes: { items: unknown } } };
    expect(schema.$schema).toBeUndefined();
    expect(schema.required).toEqual(['title', 'scenes', 'post']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.scenes).toMatchObject({ type: 'array', minItems: 5, maxItems: 5 });
    expect(schema.properties.scenes.items).toMatchObject({ required: ['narration', 'imagePrompt'], additionalProperties: false });

    const prompt = body.messages.map((message) => message.content).join('\n');
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(prompt).toContain('The lighthouse that never went dark');
    expect(prompt).toContain('Style: mysterious');
    expect(prompt).toContain('in Japanese');
    expect(prompt).toContain('Exactly 5 scenes');
    expect(prompt).toContain('about 75 words');
    expect(prompt).toContain('Mention the year 1893.');
    expect(prompt).toContain('imagePrompt is written in English');
    expect(prompt).toContain('dark horror');
  });

  it('has the model write the post in the narration language, and keeps it when it follows the rules', async () => {
    const { fake, provider } = await setup();
    const story = await provider.writeStory(request);
    const body = fake.requests[0]!.json<ChatRequestBody>();
    const schema = body.response_format.json_schema!.schema as { properties: { post: Record<string, unknown> } };
    expect(schema.properties.post).toMatchObject({ required: ['title', 'description', 'hashtags'], additionalProperties: false });
    const prompt = body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('post is what the creator pastes beside the video when posting it, written in Japanese');
    expect(prompt).toContain('3 to 8 different hashtags');
    // The fake model sent #Lighthouse twice in two cases: one is kept.
    expect(story.post).toEqual({
      title: 'The keeper who never let the light go out',
      summary: 'A lighthouse keeper climbs the stairs through a night of storm. The light must not go out.',
      hashtags: ['#Lighthouse', '#StormNight', '#KeeperStories'],
    });
  });

  it.each([
    ['no post', undefined],
    ['a title over 100 characters', { title: 'x'.repeat(101), description: 'A story.', hashtags: ['#a1', '#b2', '#c3'] }],
    ['two hashtags', { title: 'T', description: 'A story.', hashtags: ['#Light', '#House'] }],
    ['nine hashtags', { title: 'T', description: 'A story.', hashtags: Array.from({ length: 9 }, (_, index) => `#tag${index}`) }],
    ['three tags, two of them the same', { title: 'T', description: 'A story.', hashtags: ['#Light', '#light', '#House'] }],
    ['an empty description', { title: 'T', description: '  ', hashtags: ['#a1', '#b2', '#c3'] }],
    ['hashtags that are not strings', { title: 'T', description: 'A story.', hashtags: [1, 2, 3] }],
  ])('keeps the story and leaves the post to the offline kit when the model sends %s', async (_, post) => {
    const { fake, provider } = await setup({
      story: (sceneCount) => ({
        title: 'Light',
        scenes: Array.from({ length: sceneCount }, (_, index) => ({ narration: `Line ${index}`, imagePrompt: `Picture ${index}` })),
        ...(post === undefined ? {} : { post }),
      }),
    });
    const story = await provider.writeStory(request);
    expect(story.scenes).toHaveLength(5);
    expect(story.post).toBeUndefined();
    // An unusable post is no reason to ask the model again.
    expect(fake.requests).toHaveLength(1);
  });

  it("passes a creator's custom style text as their own words", async () => {
    const { fake, provider } = await setup();
    await provider.writeStory({ ...request, style: 'like a pirate telling a bedtime story' });
    const prompt = fake.requests[0]!.json<ChatRequestBody>().messages[1]!.content;
    expect(prompt).toContain('in the creator\'s own words: """like a pirate telling a bedtime story"""');
  });

  it('retries once with a correction after invalid JSON, then succeeds', async () => {
    const { fake, provider } = await setup();
    fake.setNext(chatCompletionResponse('Sure! Here is your story: {title: oops'));
    const story = await provider.writeStory(request);
    expect(story.scenes).toHaveLength(5);
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]!.json<ChatRequestBody>();
    expect(retry.messages).toHaveLength(4);
    expect(retry.messages[2]).toEqual({ role: 'assistant', content: 'Sure! Here is your story: {title: oops' });
    expect(retry.messages[3]!.role).toBe('user');
    expect(retry.messages[3]!.content).toContain('the answer was not valid JSON');
    expect(retry.messages[3]!.content).toContain('exactly 5 scenes');
  });

  it('accepts JSON wrapped in a markdown fence', async () => {
    const { fake, provider } = await setup();
    fake.setNext(chatCompletionResponse(`\`\`\`json\n${storyJson(5)}\n\`\`\``));
    const story = await provider.writeStory(request);
    expect(story.scenes[0]).toEqual({ narration: 'Line 0', imagePrompt: 'Picture 0' });
    expect(fake.requests).toHaveLength(1);
  });

  it('fails with a final error when the story is unusable twice', async () => {
    const { fake, provider } = await setup();
    fake.setNext(chatCompletionResponse(storyJson(3)), chatCompletionResponse(storyJson(4)));
    const error = await failure(provider.writeStory(request));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'The story service returned an unusable story twice (it had 4 scenes instead of exactly 5). Try again, or choose another story model.',
    );
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.json<ChatRequestBody>().messages[3]!.content).toContain('it had 3 scenes instead of exactly 5');
  });

  it('treats empty fields and cut-off answers as invalid', async () => {
    const { fake, provider } = await setup();
    const empty = JSON.parse(storyJson(5));
    empty.scenes[2].narration = '  ';
    fake.setNext(chatCompletionResponse(JSON.stringify(empty)), chatCompletionResponse('{"title": "Li', { finishReason: 'length' }));
    const error = await failure(provider.writeStory(request));
    expect(error.message).toContain('the answer was cut off');
    expect(fake.requests[1]!.json<ChatRequestBody>().messages[3]!.content).toContain('scenes.2.narration: narration must not be empty');
  });

  it('reports a refusal as final', async () => {
    const { fake, provider } = await setup();
    fake.setNext(chatCompletionResponse(null, { refusal: "I'm sorry, I can't help with that." }));
    const error = await failure(provider.writeStory(request));
    expect(error.message).toBe(
      "The story service refused to write this story: I'm sorry, I can't help with that. Try rephrasing the topic.",
    );
    expect(error.retryable).toBe(false);
  });

  it('does not retry a rejected API key and never shows the key', async () => {
    const { fake } = await setup();
    const provider = createOpenAiStoryProvider({
      baseUrl: fake.baseUrl,
      apiKey: 'sk-wrong-key-abcdefghijkl',
      model: 'gpt-4o-mini',
      retryDelaysMs: [5, 5],
    });
    const error = await failure(provider.writeStory(request));
    expect(error.message).toMatch(/^The story service rejected the API key/);
    expect(error.message).not.toContain('sk-wrong-key-abcdefghijkl');
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  it('waits out a 429 and succeeds', async () => {
    const { fake, provider } = await setup();
    fake.setNext(
      openAiError(
        429,
        'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.',
        'requests',
        'rate_limit_exceeded',
        {
          'retry-after-ms': '300',
        },
      ),
    );
    const started = Date.now();
    const story = await provider.writeStory(request);
    expect(story.scenes).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry an exhausted quota', async () => {
    const { fake, provider } = await setup();
    fake.setNext(
      openAiError(
        429,
        'You exceeded your current quota, please check your plan and billing details.',
        'insufficient_quota',
        'insufficient_quota',
      ),
    );
    const error = await failure(provider.writeStory(request));
    expect(error.message).toBe('The story service account has run out of credits or quota; check the plan and billing of the API key');
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('surfaces a retryable error after three server errors', async () => {
    const { fake, provider } = await setup();
    const overloaded = openAiError(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
    const error = await failureAfterThreeAttempts(fake, overloaded, () => provider.writeStory(request));
    expect(error.message).toMatch(/^The story service is unavailable right now \(HTTP 500\)/);
  });

  it('cancels an in-flight request', async () => {
    const { fake, provider } = await setup();
    await expectCancelledMidRequest(fake, (signal) => provider.writeStory(request, signal));
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back to json_object when the server does not support json_schema', async () => {
    const { fake, provider } = await setup();
    fake.setNext(openAiError(400, "'response_format.type' must be 'json_object' or 'text'", 'invalid_request_error', null));
    const story = await provider.writeStory(request);
    expect(story.scenes).toHaveLength(5);
    expect(fake.requests.map((sent) => sent.json<ChatRequestBody>().response_format.type)).toEqual(['json_schema', 'json_object']);
  });

  it('writes real stories from a local model server (Ollama, llama.cpp) configured by environment alone', async () => {
    // What README's "Real stories, fully offline" sets: no key, a local base URL, a tagged model name.
    const server = closedAfterTest(await startFakeOpenAiServer({ models: ['llama3.1:8b'] }));
    const config = loadPipelineConfig({ STORY_PROVIDER: 'openai', OPENAI_BASE_URL: server.baseUrl, OPENAI_MODEL: 'llama3.1:8b' });
    const { story } = createProviders(config);
    expect(story.name).toBe('openai');
    // Small local models refuse json_schema on older servers and wrap their answer in a fence.
    server.setNext(openAiError(400, "'response_format.type' must be 'json_object' or 'text'", 'invalid_request_error', null));
    server.setNext(chatCompletionResponse('```json\n' + storyJson(5) + '\n```', { model: 'llama3.1:8b' }));
    const written = await story.writeStory(request);
    expect(written.scenes.map((scene) => scene.narration)).toEqual(['Line 0', 'Line 1', 'Line 2', 'Line 3', 'Line 4']);
    expect(server.requests.every((sent) => sent.headers.authorization === undefined)).toBe(true);
    expect(server.requests.map((sent) => sent.json<ChatRequestBody>().model)).toEqual(['llama3.1:8b', 'llama3.1:8b']);
    expect((await story.health()).status).toBe('healthy');
  });

  it('speaks Azure OpenAI: api-key header and api-version', async () => {
    const server = closedAfterTest(await startFakeOpenAiServer({ apiKey: API_KEY, apiKeyHeader: 'api-key' }));
    const provider = createOpenAiStoryProvider({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      apiKeyHeader: 'api-key',
      apiVersion: '2024-10-21',
      model: 'my-deployment',
      retryDelaysMs: [5, 5],
    });
    await provider.writeStory(request);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe(API_KEY);
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('reports health from GET /models', async () => {
    const { fake, provider } = await setup({ models: ['gpt-4o-mini'] });
    await expect(provider.health()).resolves.toEqual({ name: 'openai', status: 'healthy', details: 'Reachable; model gpt-4o-mini' });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });

    const missing = createOpenAiStoryProvider({ baseUrl: fake.baseUrl, apiKey: API_KEY, model: 'llama3' });
    await expect(missing.health()).resolves.toMatchObject({ status: 'error', details: expect.stringContaining('llama3 is not offered') });

    const badKey = createOpenAiStoryProvider({ baseUrl: fake.baseUrl, apiKey: 'nope', model: 'gpt-4o-mini' });
    await expect(badKey.health()).resolves.toMatchObject({ status: 'error', details: expect.stringMatching(/rejected the API key/) });
  });
});
