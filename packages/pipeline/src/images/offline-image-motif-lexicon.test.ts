import { loadImage, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { createRandom } from './offline-image-color.js';
import { findMotif, MOTIF_IDS, motifSpec } from './offline-image-motif-lexicon.js';
import { planScene } from './offline-image-plan.js';
import { chooseSceneSubjects } from './offline-image-subject-choice.js';
import { renderOfflineImage } from './offline-image-provider.js';

describe('findMotif', () => {
  it('has a vocabulary of at least 40 subjects', () => {
    expect(MOTIF_IDS.length).toBeGreaterThanOrEqual(40);
  });

  it.each([
    ['Why octopuses have three hearts', 'octopus'],
    ['ऑक्टोपस के तीन दिल क्यों होते हैं', 'octopus'],
    ['タコの心臓はなぜ三つあるのか', 'octopus'],
    ['¿Por qué el pulpo tiene tres corazones?', 'octopus'],
    ['How volcanoes create new islands', 'volcano'],
    ['Les volcans d’Islande', 'volcano'],
    ['Wie Vulkane Inseln bauen', 'volcano'],
    ['Ein Vulkan erwacht', 'volcano'],
    ['富士山はどうやってできたのか', 'mountain'],
    ['गंगा नदी की कहानी', 'river'],
    ['The story of the Ganges', 'river'],
    ['Mistérios do universo', 'galaxy'],
    ['ब्रह्मांड का रहस्य', 'galaxy'],
    ['Is AI going to take our jobs?', 'robot'],
    ['電車の歴史', 'train'],
    ['A história do café', 'coffee'],
    ['Pourquoi la lune change de forme', 'moon'],
    ['10 facts about cats', 'cat'],
  ])('finds the subject of %s', (topic, motif) => {
    expect(findMotif(topic)).toBe(motif);
  });

  it('matches whole words in Latin scripts and nothing in unrelated text', () => {
    expect(findMotif('Marsupials of Australia')).toBeNull();
    expect(findMotif('The catalogue of ships')).toBe('ship');
    expect(findMotif('日本の文化')).toBeNull();
    expect(findMotif('How to negotiate a raise')).toBeNull();
  });
});

describe('pictures of the subject', () => {
  const planned = (prompt: string, topic: string, style: Parameters<typeof planScene>[1] = 'cinematic', seed = 1) =>
    planScene(prompt, style, createRandom(seed), chooseSceneSubjects({ prompt, topic, seed }));

  it('puts the subject in its setting, whatever backdrop the scene prompt describes', () => {
    for (const [index, prompt] of [
      'ancient ruins in the desert under a clear sky',
      'city rooftops at night with glowing windows',
      'a starry night sky above quiet hills',
    ].entries()) {
      const plan = planned(
        `${prompt}, the legacy of Why octopuses have three hearts`,
        'Why octopuses have three hearts',
        'cinematic',
        index,
      );
      expect(plan).toMatchObject({ terrain: 'sea', focal: 'none' });
      expect(plan.subjects?.name).toBe('octopus');
    }
    // The painter's own volcano stands in its mountains.
    const volcano = planned('a cottage window glowing at evening in the countryside', 'How volcanoes create new islands');
    expect(volcano).toMatchObject({ motif: 'volcano', terrain: 'mountains' });
    // The style still wins over a subject's setting: horror never shows a sunny day.
    expect(planned('a field', 'The sun', 'dark horror', 2).time).not.toBe('day');
  });

  it('takes the scene’s own subject first, then the topic’s, and draws a landscape with neither', () => {
    expect(planned('a whale breaching at dawn', 'How to negotiate a salary').subjects?.name).toBe('whale');
    expect(planned('a starry night sky above quiet hills', 'The history of the bicycle').subjects?.name).toBe('bicycle');
    expect(planned('wide shot of a lone figure on a hill', 'How to negotiate a salary').subjects?.name ?? null).toBeNull();
  });

  it('draws every subject, and the subject changes the picture', async () => {
    const mean = async (bytes: Buffer) => {
      const image = await loadImage(bytes);
      const canvas = createCanvas(image.width, image.height);
      canvas.getContext('2d').drawImage(image, 0, 0);
      const data = canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data;
      return data;
    };
    const base = { prompt: 'a peaceful sunrise over the sea', visualStyle: 'cinematic' as const, width: 90, height: 160, sceneIndex: 0 };
    const plain = await mean(await renderOfflineImage({ ...base, topic: 'How to negotiate a raise' }, 'png'));
    for (const motif of MOTIF_IDS) {
      const topic = motifSpec(motif).words[0]!;
      expect(findMotif(topic)).toBe(motif);
      const drawn = await mean(await renderOfflineImage({ ...base, topic }, 'png'));
      let changed = 0;
      for (let i = 0; i < drawn.length; i += 4)
        if (Math.abs(drawn[i]! - plain[i]!) + Math.abs(drawn[i + 1]! - plain[i + 1]!) + Math.abs(drawn[i + 2]! - plain[i + 2]!) > 60)
          changed++;
      // At least 3% of the frame shows the subject.
      expect(changed / (drawn.length / 4), motif).toBeGreaterThan(0.03);
    }
  });
});
