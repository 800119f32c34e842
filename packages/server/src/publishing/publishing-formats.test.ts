import { describe, expect, it } from 'vitest';
import { instagramCaption } from './instagram-publisher.js';
import { codeChallengeS256 } from './oauth-clients.js';
import type { PublishInput } from './publisher.js';
import { limitText } from './publisher.js';
import { tiktokChunks, TIKTOK_CHUNK_BYTES } from './tiktok-publisher.js';
import { youtubeMetadata } from './youtube-publisher.js';

const MB = 1024 * 1024;

const input = (overrides: Partial<PublishInput> = {}): PublishInput => ({
  platform: 'youtube',
  title: 'Why <cats> purr',
  description: 'Purring is a low hum.',
  hashtags: ['#cats', '#science'],
  privacy: 'public',
  publishAt: null,
  videoFile: '/dev/null',
  videoBytes: 1,
  durationSeconds: 30,
  posterFile: null,
  captionsSrt: null,
  language: 'hi',
  publicVideoUrl: 'https://reelsmith.example/output/x/video.mp4',
  account: { id: 'UC1', name: 'Channel' },
  ...overrides,
});

describe('the formats each platform is sent', () => {
  it('derives the PKCE challenge as RFC 7636 appendix B does', () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('follows TikTok’s chunk rules: one chunk under 5 MB, otherwise the count rounded down with the rest in the last', () => {
    expect(tiktokChunks(4 * MB)).toEqual({ chunkSize: 4 * MB, count: 1 });
    // Under two chunks: the file whole (one chunk of 5-64 MB), never a count of 1 with a bigger chunk_size.
    expect(tiktokChunks(5 * MB)).toEqual({ chunkSize: 5 * MB, count: 1 });
    expect(tiktokChunks(7 * MB)).toEqual({ chunkSize: 7 * MB, count: 1 });
    expect(tiktokChunks(23 * MB)).toEqual({ chunkSize: TIKTOK_CHUNK_BYTES, count: 2 });
    expect(tiktokChunks(25 * MB + 7)).toEqual({ chunkSize: TIKTOK_CHUNK_BYTES, count: 2 });
    // The guide's rule for every size: count = floor(size / chunk_size), each chunk 5-64 MB, the last at most 128 MB.
    for (const size of [5 * MB, 9 * MB, 19 * MB + 1, 64 * MB, 200 * MB + 3, 1000 * MB]) {
      const { chunkSize, count } = tiktokChunks(size);
      expect(count).toBe(Math.floor(size / chunkSize));
      expect(chunkSize).toBeGreaterThanOrEqual(5 * MB);
      expect(chunkSize).toBeLessThanOrEqual(64 * MB);
      expect(size - chunkSize * (count - 1)).toBeLessThanOrEqual(128 * MB);
    }
  });

  it('gives YouTube a clean title, the hashtags as tags, the language and the AI and made-for-kids declarations', () => {
    const metadata = youtubeMetadata(input());
    expect(metadata.snippet).toMatchObject({ title: 'Why cats purr', tags: ['cats', 'science'], defaultLanguage: 'hi' });
    expect(metadata.snippet.description).toBe('Purring is a low hum.\n\n#cats #science');
    expect(metadata.status).toEqual({ privacyStatus: 'public', selfDeclaredMadeForKids: false, containsSyntheticMedia: true });
    const scheduled = youtubeMetadata(input({ privacy: 'public', publishAt: '2027-01-01T10:00:00+05:30' }));
    expect(scheduled.status).toMatchObject({ privacyStatus: 'private', publishAt: '2027-01-01T04:30:00.000Z' });
  });

  it('keeps Instagram’s caption within 2,200 characters with its hashtags whole', () => {
    const caption = instagramCaption(input({ description: 'x'.repeat(5000) }));
    expect([...caption].length).toBeLessThanOrEqual(2200);
    expect(caption.endsWith('\n\n#cats #science')).toBe(true);
  });

  it('cuts text by characters, never inside one', () => {
    // स्ते is one character to a reader (a conjunct: consonant, virama, consonant, vowel sign): whole or not at all.
    expect(limitText('नमस्ते दुनिया', 5)).toBe('नम');
    expect(limitText('नमस्ते दुनिया', 6)).toBe('नमस्ते');
    expect(limitText('🐙🐙🐙', 2)).toBe('🐙🐙');
    expect(limitText('👍🏽👍🏽', 3)).toBe('👍🏽');
    expect(limitText('short', 10)).toBe('short');
  });
});
