import { galleryResponseSchema, type GalleryExample } from '@reelsmith/contracts';
import { buildApp, createTestDatabase, type App, type TestDatabase } from '@reelsmith/server/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { voices: { autoGenerateOfflineSamples: false }, jobs: { autoStart: false } };

/**
 * GET /api/gallery and the example files. The examples are made by a stand-in that waits until it
 * is let go (the real maker renders three videos; gallery.spec.ts runs it end to end).
 */
describe('the visitor gallery', () => {
  let database: TestDatabase;
  let app: App;
  let origin: string;
  const made: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp(database.config({ GALLERY_EXAMPLES: 'on' }), {
      ...quiet,
      gallery: {
        startDelayMs: 0,
        make: async (dir, recipe) => {
          await released;
          const name = `${recipe.slug}-0123456789ab`;
          writeFileSync(join(dir, `${name}.mp4`), 'video');
          writeFileSync(join(dir, `${name}.jpg`), 'poster');
          made.push(recipe.slug);
          const example: GalleryExample = {
            resolution: recipe.resolution,
            title: recipe.topic,
            videoUrl: `/gallery/${name}.mp4`,
            posterUrl: `/gallery/${name}.jpg`,
            width: 540,
            height: 960,
            durationSeconds: 30,
          };
          return example;
        },
      },
    });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    release();
    await app?.close();
    await database?.cleanup();
  });

  it('answers at once while the examples are being made, then lists them in format order', async () => {
    const first = galleryResponseSchema.parse(await (await fetch(`${origin}/api/gallery`)).json());
    expect(first).toEqual({ state: 'making', examples: [] });
    release();
    await expect.poll(async () => galleryResponseSchema.parse(await (await fetch(`${origin}/api/gallery`)).json()).state).toBe('ready');
    // One at a time, in the order the page shows them.
    expect(made).toEqual(['portrait', 'landscape', 'square']);
    const ready = galleryResponseSchema.parse(await (await fetch(`${origin}/api/gallery`)).json());
    expect(ready.examples.map((example) => example.resolution)).toEqual(['9:16', '16:9', '1:1']);
  });

  it('serves the made files with year-long caching, and nothing else from the folder', async () => {
    const video = await fetch(`${origin}/gallery/portrait-0123456789ab.mp4`);
    expect(video.status).toBe(200);
    expect(video.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${origin}/gallery/portrait-0123456789ab.jpg`)).headers.get('content-type')).toBe('image/jpeg');
    // The records and the work folder stay private.
    expect((await fetch(`${origin}/gallery/portrait.json`)).status).toBe(404);
  });

  it('keeps what was made: a restarted server lists the examples without making them again', async () => {
    const again = await buildApp(database.config({ GALLERY_EXAMPLES: 'on' }), {
      ...quiet,
      gallery: { make: () => Promise.reject(new Error('made again')) },
    });
    try {
      await again.listen({ host: '127.0.0.1', port: 0 });
      const body = galleryResponseSchema.parse((await again.inject({ method: 'GET', url: '/api/gallery' })).json());
      expect(body.state).toBe('ready');
      expect(body.examples).toHaveLength(3);
    } finally {
      await again.close();
    }
  });

  it('is off with GALLERY_EXAMPLES=off: no examples, no files', async () => {
    const off = await buildApp(database.config(), quiet);
    try {
      expect((await off.inject({ method: 'GET', url: '/api/gallery' })).json()).toEqual({ state: 'off', examples: [] });
      expect((await off.inject({ method: 'GET', url: '/gallery/portrait-0123456789ab.mp4' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
