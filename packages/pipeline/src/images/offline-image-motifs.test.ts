import { loadImage, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { createRandom } from './offline-image-color.js';
import { findMotif, MOTIF_IDS, motifSpec } from './offline-image-motifs.js';
import { planScene } from './offline-image-plan.js';
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
  it('puts the topic’s subject in its setting in every scene, whatever the scene prompt says', () => {
    for (const [index, prompt] of ['ancient ruins in the desert under a clear sky', 'city rooftops at night with glowing windows', 'a starry night sky above quiet hills'].entries()) {
      const plan = planScene(`${prompt}, the legacy of Why octopuses have three hearts`, 'cinematic', createRandom(index), 'Why octopuses have three hearts');
      expect(plan).toMatchObject({ motif: 'octopus', terrain: 'sea', focal: 'none' });
    }
    const volcano = planScene('a cottage window glowing at evening in the countryside', 'cinematic', createRandom(1), 'How volcanoes create new islands');
    expect(volcano).toMatchObject({ motif: 'volcano', terrain: 'mountains' });
    // The style still wins over a subject's setting: horror never shows a sunny day.
    expect(planScene('a field', 'dark horror', createRandom(2), 'The sun').time).not.toBe('day');
  });

  it('falls back to the scene prompt, then to a landscape', () => {
    expect(planScene('a whale breaching at dawn', 'cinematic', createRandom(3), 'How to negotiate a raise').motif).toBe('whale');
    expect(planScene('wide shot of a lone figure on a hill', 'cinematic', createRandom(3), 'How to negotiate a raise').motif).toBeNull();
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
      for (let i = 0; i < drawn.length; i += 4) if (Math.abs(drawn[i]! - plain[i]!) + Math.abs(drawn[i + 1]! - plain[i + 1]!) + Math.abs(drawn[i + 2]! - plain[i + 2]!) > 60) changed++;
      // At least 3% of the frame shows the subject.
      expect(changed / (drawn.length / 4), motif).toBeGreaterThan(0.03);
    }
  });
});
