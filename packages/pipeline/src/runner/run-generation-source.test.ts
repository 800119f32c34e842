import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVideoBodySchema, VIDEO_LANGUAGES, type VideoLanguage } from '@reelsmith/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { placeholderImages } from '../testing/placeholder-images.js';
import { createOfflineStoryProvider } from '../story/offline-story-provider.js';
import { splitSentences, trimSentence } from '../story/source-text.js';
import { createOfflineVoiceProvider } from '../voice/offline-voice-provider.js';
import { defaultOfflineVoice } from '../voice/voice-catalogue.js';
import { NARRATION_END_MARGIN_SECONDS } from './narration.js';
import { runGeneration } from './run-generation.js';
import { placeholderRender } from './run-test-render.js';

const workspaceRoot = mkdtempSync(join(tmpdir(), 'reelsmith-source-'));
afterAll(() => rmSync(workspaceRoot, { recursive: true, force: true }));

const articleText = (language: VideoLanguage): string =>
  readFileSync(new URL(`../story/source-articles/${language}.txt`, import.meta.url), 'utf8');

function audioSeconds(path: string): number {
  return Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim(),
  );
}

/**
 * An article through the real story step and the real offline voice (espeak-ng): the narration is the
 * article's own sentences and, paced, it ends NARRATION_END_MARGIN_SECONDS before the video does,
 * within half a second, in every narration language.
 */
describe('a 30 s video of an article, narrated offline', () => {
  for (const language of VIDEO_LANGUAGES) {
    it(`fits the ${language} article's narration to 30 s (±0.5 s)`, { timeout: 180_000 }, async () => {
      const voice = defaultOfflineVoice(language)!.id;
      const params = generateVideoBodySchema.parse({
        style: 'educational',
        language,
        duration: 30,
        voice,
        source: { kind: 'article', text: articleText(language), title: 'An article' },
      });
      let narrationSeconds = 0;
      const assemble = placeholderRender((request) => {
        narrationSeconds = audioSeconds(request.audioPath);
      });
      const output = await runGeneration(
        {
          jobId: `source-${language}`,
          params,
          workspaceDir: join(workspaceRoot, language),
          providers: { story: createOfflineStoryProvider(), voice: createOfflineVoiceProvider(), images: placeholderImages },
        },
        { assemble },
      );

      console.info(`${language}: the article's narration ends at ${narrationSeconds.toFixed(2)} s of 30`);
      expect(
        Math.abs(narrationSeconds - (30 - NARRATION_END_MARGIN_SECONDS)),
        `narration of ${narrationSeconds.toFixed(2)} s`,
      ).toBeLessThanOrEqual(0.5);
      const sentences = new Set(splitSentences(articleText(language), language).map((sentence) => sentence.text));
      const scenes = output.scenes ?? [];
      // Scenes change between sentences: at most the 5 scenes of a 30 s video, none ending inside a sentence.
      expect(scenes.length).toBeLessThanOrEqual(5);
      expect(scenes.length).toBeGreaterThanOrEqual(2);
      for (const scene of scenes) expect(scene.narration).toMatch(/[.!?。！？।]["'”’»」』)）]*$/u);
      for (const scene of scenes) {
        expect(scene.sourceSentences?.length).toBeGreaterThan(0);
        for (const sentence of scene.sourceSentences!) {
          expect(sentences.has(sentence)).toBe(true);
          expect(
            trimSentence(sentence, language).includes(scene.narration) || scene.narration.includes(trimSentence(sentence, language)),
          ).toBe(true);
        }
      }
    });
  }
});
