import { describe, expect, it } from 'vitest';
import type { StoryRequest } from '../providers/types.js';
import { SCENE_GAP_SECONDS } from '../runner/narration.js';
import { tellSource } from './source-story.js';
import { splitSentences, trimSentence } from './source-text.js';
import { planStory, sceneCountFor } from './story-budget.js';

function request(topic: string, language: string, durationSeconds: number): StoryRequest {
  const sceneCount = sceneCountFor(durationSeconds);
  const { targetWords } = planStory(durationSeconds - SCENE_GAP_SECONDS * (sceneCount - 1), 178, language);
  return { topic, style: 'educational', language, durationSeconds, visualStyle: 'cinematic', customPrompt: '', sceneCount, targetWords };
}

const tell = (topic: string, title: string, text: string, language = 'en', duration = 30) =>
  tellSource(request(topic, language, duration), { kind: 'article', text, title, language });

/** An article whose lead is general and whose answer to "why three hearts" sits in a later section. */
const OCTOPOD = `The blue-ringed squidling is a small cephalopod of warm coastal waters. It was first described in 1921 by a museum in Sydney. Fishermen in the region have told stories about it for centuries. It is a popular subject for underwater photographers.
Anatomy
The squidling has three hearts. Two branchial hearts pump blood through the gills. The third heart pumps the blood through the rest of the body. Its blood is blue, because it carries oxygen with a copper-based protein called haemocyanin.
Range
The squidling lives on reefs from Japan to Australia. Divers find it most often at dusk.
Research
John Mercer studied the squidling for twenty years at a station near Cairns. Mercer's notebooks are kept in the national library.`;

describe('telling a researched article as the answer to the topic', () => {
  it('opens with the sentence that defines the subject, then tells the section that answers the question', () => {
    const story = tell('Why the squidling has three hearts', 'Blue-ringed squidling', OCTOPOD);
    const narration = story.scenes.map((scene) => scene.narration);
    expect(narration[0]).toMatch(/^The blue-ringed squidling is a small cephalopod/u);
    const told = narration.join(' ');
    expect(told).toContain('The squidling has three hearts.');
    expect(told).toContain('copper-based protein');
    // Trivia from the lead and the margins gives way to the answer.
    expect(told).not.toContain('1921');
    expect(told).not.toContain('photographers');
  });

  it('titles the video by the question asked, and a subject by its article', () => {
    expect(tell('Why the squidling has three hearts', 'Blue-ringed squidling', OCTOPOD).title).toBe('Why the Squidling Has Three Hearts');
    expect(tell('squidling', 'Blue-ringed squidling', OCTOPOD).title).toBe('Blue-ringed squidling');
  });

  it('keeps an enumeration whole: "Two…" is never told without "The third…", nor the other way round', () => {
    for (const duration of [30, 60]) {
      const told = tell('Why the squidling has three hearts', 'Blue-ringed squidling', OCTOPOD, 'en', duration)
        .scenes.map((scene) => scene.narration)
        .join(' ');
      expect(told.includes('Two branchial hearts'), `${duration} s`).toBe(told.includes('The third heart'));
    }
  });

  it('tells a surname only after the sentence that introduced the person', () => {
    const told = tell('Who studied the squidling', 'Blue-ringed squidling', OCTOPOD, 'en', 60)
      .scenes.map((scene) => scene.narration)
      .join(' ');
    if (told.includes("Mercer's notebooks")) expect(told).toContain('John Mercer studied');
    const tight = tell("Where are Mercer's notebooks kept", 'Blue-ringed squidling', OCTOPOD, 'en', 30)
      .scenes.map((scene) => scene.narration)
      .join(' ');
    expect(tight).toContain("Mercer's notebooks");
    expect(tight.indexOf('John Mercer studied')).toBeGreaterThanOrEqual(0);
    expect(tight.indexOf('John Mercer studied')).toBeLessThan(tight.indexOf("Mercer's notebooks"));
  });

  it('never opens a scene with a word that refers back to a sentence it did not tell ("These", "Ensuite", "Cela")', () => {
    const french = `La tour est un monument de fer construit pour l'Exposition universelle de 1889. Elle mesure 330 mètres de haut.
Histoire
Au départ, la tour ne devait rester debout que vingt ans. Gustave Eiffel a fait installer une antenne au sommet pour sauver la tour. Ensuite, la tour sert d'émetteur pour la radio militaire. Cela la rend indispensable, et la ville la garde.`;
    for (const duration of [30, 60]) {
      const story = tell("L'histoire de la tour", 'La tour', french, 'fr', duration);
      const sentences = story.scenes.flatMap((scene) => scene.sourceSentences ?? []);
      const all = splitSentences(french, 'fr').map((sentence) => sentence.text);
      for (const sentence of sentences) {
        if (/^(?:Ensuite|Cela)\b/u.test(sentence)) expect(sentences).toContain(all[all.indexOf(sentence) - 1]);
      }
      // Every word told is the article's: each scene is its sentences, trimmed, nothing added.
      for (const scene of story.scenes)
        expect(scene.narration).toBe(scene.sourceSentences!.map((sentence) => trimSentence(sentence, 'fr')).join(' '));
    }
  });

  it('cuts no sentence across scenes at 30 s: a scene ends where a sentence does', () => {
    const story = tell('Why the squidling has three hearts', 'Blue-ringed squidling', OCTOPOD);
    for (const scene of story.scenes.slice(0, -1)) expect(scene.narration).toMatch(/[.!?]$/u);
  });
});
