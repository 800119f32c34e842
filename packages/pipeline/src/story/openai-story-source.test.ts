import { afterEach, describe, expect, it } from 'vitest';
import type { StoryRequest } from '../providers/types.js';
import {
  chatCompletionResponse,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
  type FakeOpenAiServerOptions,
} from '../testing/fake-openai-server.js';
import { createOpenAiStoryProvider } from './openai-story-provider.js';

const API_KEY = 'sk-test-story-key-0123456789';
let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ChatRequestBody = {
  messages: Array<{ role: string; content: string }>;
  response_format: {
    type: string;
    json_schema?: { schema: { properties: { scenes: { items: { required: string[]; properties: Record<string, unknown> } } } } };
  };
};

const ARTICLE = [
  'Glass frogs live in the rainforests of Central and South America.',
  'Their skin is so clear that you can see their hearts beating.',
  'Scientists in 2022 found that sleeping glass frogs hide almost all their red blood cells in their liver.',
  'This makes them nearly invisible to predators while they rest on leaves.',
  'When they wake up, the blood flows back into their bodies.',
  'Researchers hope the trick can teach medicine how to stop blood from clotting.',
].join(' ');

const request: StoryRequest = {
  topic: 'Glass frogs',
  style: 'educational',
  language: 'en',
  durationSeconds: 30,
  visualStyle: 'cinematic',
  customPrompt: '',
  sceneCount: 3,
  targetWords: 60,
  source: { kind: 'article', text: ARTICLE, title: 'The frogs that hide their blood', language: 'en' },
};

async function setup(story?: FakeOpenAiServerOptions['story']) {
  server = await startFakeOpenAiServer({ apiKey: API_KEY, ...(story ? { story } : {}) });
  return {
    fake: server,
    provider: createOpenAiStoryProvider({ baseUrl: server.baseUrl, apiKey: API_KEY, model: 'gpt-4o-mini', retryDelaysMs: [5, 5] }),
  };
}

const scenesTelling = (numbers: number[][]) => ({
  title: 'Invisible frogs',
  scenes: numbers.map((sentences, index) => ({
    narration: `Scene ${index + 1} in the model's words.`,
    imagePrompt: `A glass frog on a leaf, scene ${index + 1}, no text`,
    sourceSentences: sentences,
  })),
});

describe('the story model telling a source', () => {
  it('sends the article as numbered sentences under rules that forbid other facts, and keeps the sentences each scene tells', async () => {
    const { fake, provider } = await setup(() =>
      scenesTelling([
        [1, 2],
        [3, 4],
        [6, 3],
      ]),
    );
    const story = await provider.writeStory(request);

    const body = fake.requests[0]!.json<ChatRequestBody>();
    const prompt = body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('Use ONLY facts stated in the source');
    expect(prompt).toContain('[1] Glass frogs live in the rainforests of Central and South America.');
    expect(prompt).toContain('[6] Researchers hope the trick can teach medicine how to stop blood from clotting.');
    expect(prompt).toContain('Source title: The frogs that hide their blood');
    expect(prompt).toContain('Exactly 3 scenes');
    expect(body.response_format.json_schema!.schema.properties.scenes.items.required).toEqual([
      'narration',
      'imagePrompt',
      'sourceSentences',
    ]);

    expect(story.title).toBe('Invisible frogs');
    expect(story.scenes.map((scene) => scene.sourceSentences)).toEqual([
      [
        'Glass frogs live in the rainforests of Central and South America.',
        'Their skin is so clear that you can see their hearts beating.',
      ],
      [
        'Scientists in 2022 found that sleeping glass frogs hide almost all their red blood cells in their liver.',
        'This makes them nearly invisible to predators while they rest on leaves.',
      ],
      [
        'Scientists in 2022 found that sleeping glass frogs hide almost all their red blood cells in their liver.',
        'Researchers hope the trick can teach medicine how to stop blood from clotting.',
      ],
    ]);
  });

  it('asks again when a scene names a sentence the source does not have', async () => {
    const { fake, provider } = await setup();
    fake.setNext(
      chatCompletionResponse(JSON.stringify(scenesTelling([[1], [9], [2]]))),
      chatCompletionResponse(JSON.stringify(scenesTelling([[1], [5], [2]]))),
    );
    const story = await provider.writeStory(request);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.json<ChatRequestBody>().messages[3]!.content).toContain(
      'scenes.1.sourceSentences has 9, but the source sentences are numbered 1 to 6',
    );
    expect(story.scenes[1]!.sourceSentences).toEqual(['When they wake up, the blood flows back into their bodies.']);
  });

  it('tells a script in the narration language verbatim, without asking the model', async () => {
    const { fake, provider } = await setup();
    const story = await provider.writeStory({ ...request, source: { kind: 'script', text: ARTICLE, language: 'en' } });
    expect(fake.requests).toHaveLength(0);
    expect(story.scenes.map((scene) => scene.narration).join(' ')).toBe(ARTICLE);
  });

  it('has the model translate a source written in another language, faithfully', async () => {
    const { fake, provider } = await setup((sceneCount) => scenesTelling(Array.from({ length: sceneCount }, (_, index) => [index + 1])));
    const german =
      'Glasfrösche leben in den Regenwäldern Mittel- und Südamerikas. Ihre Haut ist so durchsichtig, dass man ihr Herz schlagen sieht. Im Schlaf verstecken sie fast ihr ganzes Blut in der Leber.';
    const story = await provider.writeStory({ ...request, source: { kind: 'script', text: german, language: 'de' } });
    const prompt = fake.requests[0]!.json<ChatRequestBody>()
      .messages.map((message) => message.content)
      .join('\n');
    expect(prompt).toContain('written in German');
    expect(prompt).toContain('faithful translation of it, sentence by sentence and in order');
    expect(prompt).toContain('Write the title and all narration in English (language code en), translating from the source faithfully.');
    expect(story.scenes[0]!.sourceSentences).toEqual(['Glasfrösche leben in den Regenwäldern Mittel- und Südamerikas.']);
  });
});
