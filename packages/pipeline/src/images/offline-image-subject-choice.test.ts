import { describe, expect, it } from 'vitest';
import { composeStory } from '../story/offline-story-provider.js';
import { chooseSceneSubjects } from './offline-image-subject-choice.js';

/** The subjects of a written five-scene story, each scene told the one before it, as the runner does. */
function videoSubjects(topic: string, language: string): (string | null)[] {
  const story = composeStory({
    topic,
    style: 'educational',
    language,
    durationSeconds: 30,
    visualStyle: 'cinematic',
    customPrompt: '',
    sceneCount: 5,
    targetWords: 75,
  });
  const names: (string | null)[] = [];
  story.scenes.forEach((scene, index) => {
    const previous = names.at(-1);
    names.push(
      chooseSceneSubjects({
        prompt: scene.imagePrompt,
        narration: scene.narration,
        topic,
        language,
        seed: index,
        ...(previous ? { previous } : {}),
      }).name,
    );
  });
  return names;
}

describe('subjects per scene', () => {
  it.each([
    ['The history of the bicycle', 'en'],
    ['Why honeybees dance', 'en'],
    ['Warum Katzen schnurren', 'de'],
    ['La vida de los pulpos', 'es'],
    ['Les baleines chantent', 'fr'],
    ['A história do café', 'pt'],
    ['हिमालय कैसे बना', 'hi'],
    ['桜の歴史', 'ja'],
  ])('gives a five-scene video about %s (%s) pictures of more than one thing, never the same twice in a row', (topic, language) => {
    const names = videoSubjects(topic, language);
    expect(names).toHaveLength(5);
    expect(names.every(Boolean)).toBe(true);
    expect(new Set(names).size).toBeGreaterThan(1);
    for (let i = 1; i < names.length; i++) expect(names[i], names.join(' / ')).not.toBe(names[i - 1]);
  });

  it('opens on the topic’s subject', () => {
    expect(videoSubjects('The history of the bicycle', 'en')[0]).toBe('bicycle');
    expect(videoSubjects('桜の歴史', 'ja')[0]).toBe('cherry blossom');
  });

  it('shows what the scene itself names before the topic, and a named subject again when the scene is about it', () => {
    const topic = 'The history of the bicycle';
    expect(chooseSceneSubjects({ prompt: 'a top hat beside a factory chimney', topic, language: 'en', seed: 1 }).name).toBe('top hat');
    const again = chooseSceneSubjects({
      prompt: 'a bicycle leaning on a wall',
      narration: 'The bicycle got pedals in 1860.',
      topic,
      language: 'en',
      previous: 'bicycle',
      seed: 2,
    });
    expect(again.name).toBe('bicycle');
    // Only echoed by the topic, the previous subject gives way to another.
    expect(
      chooseSceneSubjects({ prompt: 'a starry night sky above quiet hills', topic, language: 'en', previous: 'bicycle', seed: 2 }).name,
    ).not.toBe('bicycle');
  });

  it('puts up to two related subjects beside the main one', () => {
    const chosen = chooseSceneSubjects({
      prompt: 'a top hat beside a factory',
      topic: 'The history of the bicycle',
      language: 'en',
      seed: 3,
    });
    expect(chosen.companions.length).toBeGreaterThan(0);
    expect(chosen.companions.length).toBeLessThanOrEqual(2);
    expect(chosen.companions.map((subject) => subject.name)).not.toContain(chosen.name);
  });

  it('moves to the next best subject when the picture is regenerated', () => {
    const query = { prompt: 'a honeybee on a sunflower', topic: 'Why honeybees dance', language: 'en', seed: 4 };
    const first = chooseSceneSubjects(query).name!;
    const second = chooseSceneSubjects({ ...query, avoid: [first] }).name!;
    const third = chooseSceneSubjects({ ...query, avoid: [first, second] }).name!;
    expect(new Set([first, second, third]).size).toBe(3);
    expect([first, second]).toEqual(['honeybee', 'sunflower']);
  });

  it('finds a subject typed as an emoji', () => {
    expect(chooseSceneSubjects({ prompt: '', topic: '🐝 dance', seed: 0 }).name).toBe('honeybee');
  });

  it('leaves the picture a landscape when nothing is named', () => {
    expect(
      chooseSceneSubjects({ prompt: 'a starry night sky above quiet hills', topic: 'How to negotiate a salary', language: 'en', seed: 0 })
        .name,
    ).toBeNull();
  });
});
