import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema } from '@reelsmith/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { assembleVideo } from '../assembly/assemble-video.js';
import { loadPipelineConfig } from '../pipeline-config.js';
import { createProviders } from '../provider-registry.js';
import { placeholderImages } from '../testing/placeholder-images.js';
import { articleText } from '../research/wikimedia-client.js';
import { closingLine, definitionMainClause, topicLine } from '../story/answer-script.js';
import { splitSentences, trimSentence } from '../story/source-text.js';
import { sentenceCore } from '../story/sentence-core.js';
import { FAKE_ARTICLES } from '../testing/fake-wikimedia-articles.js';
import { startFakeWikimediaServer, type FakeWikimediaServer } from '../testing/fake-wikimedia-server.js';
import { defaultOfflineVoice } from '../voice/voice-catalogue.js';
import { runGeneration } from './run-generation.js';

/**
 * Near-miss titles through the whole pipeline against the fake Wikipedia: the topic finds its article
 * ("honeybees" ~ "Honey bee", "volcanes" ~ "Volcán") and the video answers it from the article's own
 * sentences, opening with the one that defines the subject, one whole sentence or more per scene.
 */
const workspaceRoot = mkdtempSync(join(tmpdir(), 'reelsmith-research-telling-'));
let fake: FakeWikimediaServer;
beforeAll(async () => {
  fake = await startFakeWikimediaServer();
});
afterAll(async () => {
  await fake.close();
  rmSync(workspaceRoot, { recursive: true, force: true });
});

const assemble: typeof assembleVideo = async (request) => {
  writeFileSync(request.outputPath, 'mp4');
  writeFileSync(request.posterPath, 'jpg');
  return {
    videoPath: request.outputPath,
    posterPath: request.posterPath,
    durationSeconds: request.durationSeconds,
    width: 1080,
    height: 1920,
    sizeBytes: 3,
    renderStats: { seconds: 0, segmentsRendered: request.scenes.length, segmentsReused: 0 },
  };
};

describe('a researched topic whose article title is a near miss', () => {
  it.each([
    ['How honeybees talk by dancing', 'en', 'Honey bee', /waggle dance/u, /^[^.]*\bhoney ?bees?\b/iu],
    ['Cómo se forman los volcanes', 'es', 'Volcán', /magma/u, /^[^.]*\bvolc[aá]n(?:es)?\b/iu],
  ])('"%s" is told from its article', { timeout: 240_000 }, async (topic, language, title, answer, opening) => {
    const voice = defaultOfflineVoice(language)!.id;
    const providers = {
      ...createProviders(
        loadPipelineConfig({
          ...process.env,
          STORY_PROVIDER: 'offline',
          IMAGE_PROVIDER: 'offline',
          VOICE_PROVIDER: 'offline',
          ...fake.env,
        }),
      ),
      images: placeholderImages,
    };
    const params = generateVideoBodySchema.parse({ topic, language, duration: 30, style: 'educational', voice, voiceProvider: 'offline' });
    const output = await runGeneration(
      { jobId: `research-${language}`, params, workspaceDir: join(workspaceRoot, language), providers },
      { assemble },
    );
    expect(output.research?.title).toBe(title);
    const scenes = output.scenes ?? [];
    const narration = scenes.map((scene) => scene.narration).join(' ');
    expect(scenes[0]!.narration).toMatch(opening);
    expect(narration).toMatch(answer);
    // Every sentence told is the article's (a definition perhaps by its main clause, a sentence of
    // the answer perhaps by its head when a 30 s video cannot tell it whole) or the topic's own first
    // or closing line, and no scene ends inside a sentence.
    const article = FAKE_ARTICLES.find((candidate) => candidate.title === title)!;
    const told = splitSentences(articleText(article.extract), language).map((sentence) => trimSentence(sentence.text, language));
    const sentences = new Set([
      ...told,
      ...told.flatMap((sentence) => definitionMainClause(sentence, language) ?? []),
      ...told.flatMap((sentence) => sentenceCore(sentence, language) ?? []),
      topicLine(topic, language),
      closingLine(topic, language),
    ]);
    for (const scene of scenes) {
      for (const sentence of splitSentences(scene.narration, language)) expect(sentences.has(sentence.text), sentence.text).toBe(true);
      expect(scene.narration).toMatch(/[.!?]$/u);
    }
  });
});
