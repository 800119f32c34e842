import { describe, expect, it } from 'vitest';
import { composeStory } from '../story/offline-story-provider.js';
import { chooseSceneSubjects, type SceneSubjects } from './offline-image-subject-choice.js';

/** The subjects of a written five-scene story, each scene told the one before it, as the runner does. */
function videoSubjects(topic: string, language: string): (string | null)[] {
  return videoScenes(topic, language).map((scene) => scene.name);
}

function videoScenes(topic: string, language: string): SceneSubjects[] {
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
  const names: SceneSubjects[] = [];
  story.scenes.forEach((scene, index) => {
    const previous = names.at(-1)?.name;
    names.push(
      chooseSceneSubjects({
        prompt: scene.imagePrompt,
        narration: scene.narration,
        topic,
        language,
        seed: index,
        ...(previous ? { previous } : {}),
      }),
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
  ])('gives a five-scene video about %s (%s) pictures of more than one thing, never the same artwork twice in a row', (topic, language) => {
    const scenes = videoScenes(topic, language);
    const names = scenes.map((scene) => scene.name);
    expect(names).toHaveLength(5);
    expect(names.every(Boolean)).toBe(true);
    // A painted landscape (the Himalaya's mountains) is painted anew in each scene: nothing merely
    // related to it (a tent, a cactus) stands in for it. Artwork subjects alternate with related ones.
    if (!scenes.every((scene) => scene.motif)) expect(new Set(names).size).toBeGreaterThan(1);
    // The painter's own landscape (the Himalaya's mountains) is painted anew in each scene and may follow itself.
    for (let i = 1; i < names.length; i++) if (!scenes[i]!.motif) expect(names[i], names.join(' / ')).not.toBe(names[i - 1]);
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

  describe('pictures that show what the scene says (issue 37)', () => {
    it('shows the lighthouse of "How lighthouses guided ships before GPS", not ships in every scene', () => {
      const scenes = videoScenes('How lighthouses guided ships before GPS', 'en');
      expect(scenes[0]!.name).toBe('lighthouse');
      expect(scenes[0]!.landmark).toBe('lighthouse');
      expect(scenes.filter((scene) => scene.name === 'lighthouse').length).toBeGreaterThanOrEqual(2);
    });

    it("draws the lighthouse a keeper's script names, never a bed or a city from its filler", () => {
      const script = [
        'Every evening at sunset, the keeper climbed the spiral stairs of the lighthouse to light the lamp.',
        'All night he wound the clockwork that turned the great lens, and he cleaned the soot from the glass.',
        'He slept in the day, in a small room at the foot of the tower, while the sea roared below.',
        'The nearest town was a day away by boat, and supplies came only once a month.',
      ];
      const topic = 'The life of a lighthouse keeper';
      let previous: string | undefined;
      const names = script.map((narration, seed) => {
        const chosen = chooseSceneSubjects({
          prompt: narration,
          narration,
          topic,
          language: 'en',
          seed,
          ...(previous ? { previous } : {}),
        });
        previous = chosen.name ?? undefined;
        return chosen.name;
      });
      expect(names[0]).toBe('lighthouse');
      expect(names.join(' / ')).not.toMatch(/bed|cityscape|city/u);
    });

    it('never shows Tokyo tower for the Eiffel Tower: the painter draws a tower', () => {
      const chosen = chooseSceneSubjects({
        prompt: 'The Eiffel Tower, wrought iron, Paris',
        narration: 'The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France.',
        topic: 'The Eiffel Tower',
        language: 'en',
        seed: 0,
      });
      expect(chosen.name).toBe('tower');
      expect(chosen.landmark).toBe('tower');
      expect(chosen.main).toBeNull();
      expect(chosen.companions.map((subject) => subject.name)).not.toContain('Tokyo tower');
    });

    it('paints the volcano of a volcano video, with no tent, cactus or beach umbrella beside it', () => {
      const scenes = videoScenes('How volcanoes work', 'en');
      for (const scene of scenes) {
        expect(['volcano', 'camping', 'desert', 'beach with umbrella', 'mount fuji']).toContain(scene.name ?? 'volcano');
        expect(scene.name === 'volcano' || scene.name === null, scenes.map((each) => each.name).join(' / ')).toBe(true);
        expect(scene.companions.map((subject) => subject.name)).toEqual([]);
      }
    });

    it.each([
      ['Les gens aiment les volcans', 'fr', 'genie'],
      ['Guarde esta ideia para amanhã', 'pt', 'guard'],
      ['一つ目の理由は簡単です', 'ja', 'eyes'],
      ['Octopuses have three hearts', 'en', 'three o’clock'],
      ['Los pulpos tienen tres corazones', 'es', 'three o’clock'],
      ['सबसे दिलचस्प बात अभी आगे है', 'hi', 'fire'],
      ['इसी बात पर अगला अहम विचार टिका है', 'hi', 'light bulb'],
      ['桜の話は耳にすることはあっても', 'ja', 'ear'],
    ])('shows nothing a filler word names in "%s" (%s): no %s', (narration, language, wrong) => {
      const chosen = chooseSceneSubjects({ prompt: narration, narration, language, seed: 0 });
      expect([chosen.name, ...chosen.companions.map((subject) => subject.name)]).not.toContain(wrong);
    });
  });

  describe('body parts', () => {
    const shown = (chosen: ReturnType<typeof chooseSceneSubjects>) => [chosen.name, ...chosen.companions.map((subject) => subject.name)];

    it.each([
      [
        'Con cada erupción, la lava se acumula alrededor de la boca, y así el volcán crece.',
        'erupción, lava, volcán',
        'Cómo se forman los volcanes',
        'es',
        'mouth',
      ],
      ['En el centro se forma el ojo, una zona tranquila.', 'centro, forma, ojo, zona', 'Cómo se forman los huracanes', 'es', 'eye'],
      ['Climbers rest at the foot of the mountain before the final push.', 'climbers, foot, mountain', 'Climbing Everest', 'en', 'foot'],
    ])('never draws a figure of speech: "%s" shows no %s', (narration, prompt, topic, language, part) => {
      expect(shown(chooseSceneSubjects({ narration, prompt, topic, language, seed: 1 }))).not.toContain(part);
    });

    it('draws a body part beside its creature, the creature first, or when the topic is about it', () => {
      const octopus = chooseSceneSubjects({
        narration: 'An octopus can taste with its arms and see with its large eyes.',
        prompt: 'octopus, arms, eyes',
        topic: 'Octopus',
        language: 'en',
        seed: 1,
      });
      expect(octopus.name).toBe('octopus');
      expect(shown(octopus)).toContain('eyes');
      expect(chooseSceneSubjects({ prompt: 'neurons firing', topic: 'How the brain works', language: 'en', seed: 1 }).name).toBe('brain');
    });
  });
});
