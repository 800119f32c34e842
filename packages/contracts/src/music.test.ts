import { describe, expect, it } from 'vitest';
import { STORY_STYLES } from './enums.js';
import { MUSIC_MOODS, musicChoiceLabel, musicMoodForStyle, resolveMusicMood } from './music.js';
import { generateVideoBodySchema } from './videos.js';

const body = { topic: 'Tides', style: 'educational', language: 'en', duration: 30, voice: 'v1' };

describe('music choice', () => {
  it('maps every story style to a mood, each mood reached by some style', () => {
    const moods = STORY_STYLES.map(musicMoodForStyle);
    for (const mood of moods) expect(MUSIC_MOODS).toContain(mood);
    expect(new Set(moods)).toEqual(new Set(MUSIC_MOODS));
    expect(musicMoodForStyle('mysterious')).toBe('mysterious');
    expect(musicMoodForStyle('funny')).toBe('playful');
    expect(musicMoodForStyle('motivational speaker')).toBe('inspiring');
    expect(musicMoodForStyle('Epic space battle')).toBe('dramatic');
    expect(musicMoodForStyle('cozy knitting tips')).toBe('upbeat');
  });

  it('resolves auto from the style, keeps a chosen mood, and none is no music', () => {
    expect(resolveMusicMood('auto', 'romantic')).toBe('calm');
    expect(resolveMusicMood(undefined, 'terrifying')).toBe('mysterious');
    expect(resolveMusicMood('playful', 'terrifying')).toBe('playful');
    expect(resolveMusicMood('none', 'funny')).toBeNull();
    expect(musicChoiceLabel('auto', 'funny')).toBe('Match the style (Playful)');
    expect(musicChoiceLabel('none', 'funny')).toBe('No music');
  });

  it('defaults a request to auto and refuses an unknown mood by name', () => {
    expect(generateVideoBodySchema.parse(body).music).toBe('auto');
    expect(generateVideoBodySchema.parse({ ...body, music: 'none' }).music).toBe('none');
    const refused = generateVideoBodySchema.safeParse({ ...body, music: 'jazz' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['music'],
      message: 'Music must be one of auto, mysterious, upbeat, calm, dramatic, playful, inspiring, none',
    });
  });
});
