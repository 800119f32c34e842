import { postKitSchema, type VideoResult } from '@reelsmith/contracts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@reelsmith/pipeline/testing';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, jobStatus, registerUser, subscribe, videoBody, waitFor, type TestUser } from './server-jobs-fakes.js';

/** What the fake model answers for each topic: the same story, with the post the test wants it to write. */
const POSTS: Record<string, unknown> = {
  'How bees talk by dancing': {
    title: 'The waggle dance: how bees give directions',
    description: 'Honeybees tell their sisters where the flowers are by dancing. The angle and the length of the dance are the map.',
    hashtags: ['#Honeybees', 'waggle dance', '#BeeFacts', '#honeybees', '#Nature'],
  },
  // Two hashtags only: the rules say 3–8, so the video gets the post built offline from the story.
  'How ants find their way home': {
    title: 'Ants and their trails',
    description: 'Ants find their way home.',
    hashtags: ['#Ants', '#Trails'],
  },
};

function storyFor(prompt: string, sceneCount: number) {
  const topic = Object.keys(POSTS).find((known) => prompt.includes(known)) ?? 'How bees talk by dancing';
  const subject = topic.includes('bees') ? 'honeybees' : 'ants';
  return {
    title: topic,
    scenes: Array.from({ length: sceneCount }, (_, index) => ({
      narration: `Scene ${index + 1}: the ${subject} keep moving along the garden path, and every one of them knows the way.`,
      imagePrompt: `Close-up of ${subject} in a sunny garden, scene ${index + 1}, no text`,
    })),
    post: POSTS[topic],
  };
}

describe('the post kit a story model writes (STORY_PROVIDER=openai, against the local fake OpenAI server)', () => {
  let database: TestDatabase;
  let app: App;
  let user: TestUser;
  let model: FakeOpenAiServer;

  beforeAll(async () => {
    model = await startFakeOpenAiServer({ apiKey: 'sk-test-post-kit', story: (sceneCount, prompt) => storyFor(prompt, sceneCount) });
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ RATE_LIMIT_AUTH_MAX: '1000' }), {
      voices: { autoGenerateOfflineSamples: false },
      jobs: {
        env: {
          PATH: process.env.PATH,
          STORY_PROVIDER: 'openai',
          OPENAI_API_KEY: 'sk-test-post-kit',
          OPENAI_BASE_URL: model.baseUrl,
          IMAGE_PROVIDER: 'offline',
          VOICE_PROVIDER: 'offline',
        },
      },
    });
    user = await registerUser(app);
    await subscribe(app, user.id, 'pro_plan');
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    await model?.close();
  });

  async function makeVideo(topic: string): Promise<VideoResult> {
    const voices = (await app.inject({ method: 'GET', url: '/voices?language=en' })).json() as {
      voices: { male: { id: string }[]; female: { id: string }[] };
    };
    const response = await app.inject({
      method: 'POST',
      url: '/api/videos/generate',
      headers: bearer(user),
      payload: videoBody(topic, {
        music: 'none',
        resolution: '1:1',
        enableZoom: false,
        research: false,
        voice: voices.voices.female[0]!.id,
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { jobId } = response.json() as { jobId: string };
    const job = await waitFor(
      async () => {
        const current = await jobStatus(app, user, jobId);
        if (current.status === 'failed' || current.status === 'cancelled')
          throw new Error(`The job ended ${current.status}: ${current.error}`);
        return current.status === 'completed' ? current : undefined;
      },
      `job ${jobId} to complete`,
      280_000,
    );
    return job.result!;
  }

  it('uses the title, description and hashtags the model wrote, our credits and AI notice appended', async () => {
    const post = postKitSchema.parse((await makeVideo('How bees talk by dancing')).post);
    expect(post.title).toBe('The waggle dance: how bees give directions');
    const [summary, ...rest] = post.description.split('\n\n');
    expect(summary).toBe(
      'Honeybees tell their sisters where the flowers are by dancing. The angle and the length of the dance are the map.',
    );
    expect(rest.at(-1)).toBe('Made with AI: the narration and the pictures of this video were generated with Reelsmith.');
    // The model's tags, cleaned up (#WaggleDance) and each once; none of the story's own words added.
    expect(post.hashtags).toEqual(['#Honeybees', '#WaggleDance', '#BeeFacts', '#Nature']);
    const asked = model.requests.find((request) => request.path === '/v1/chat/completions')!;
    expect(asked.text).toContain('post.hashtags: 3 to 8 different hashtags');
  }, 300_000);

  it('builds the post offline from the story when the model’s post breaks the rules', async () => {
    const post = postKitSchema.parse((await makeVideo('How ants find their way home')).post);
    expect(post.title).toBe('How ants find their way home');
    expect(post.description.startsWith('Ants find their way home.')).toBe(false);
    expect(post.description).toMatch(/^Scene 1: the ants keep moving/);
    expect(post.description.endsWith('generated with Reelsmith.')).toBe(true);
    expect(post.hashtags.length).toBeGreaterThanOrEqual(3);
    expect(post.hashtags.length).toBeLessThanOrEqual(8);
    expect(post.hashtags).not.toEqual(['#Ants', '#Trails']);
    expect(post.hashtags.map((tag) => tag.toLowerCase())).toContain('#ants');
  }, 300_000);
});
