import fastifyStatic from '@fastify/static';
import { API, type GalleryExample, type GalleryState } from '@reelsmith/contracts';
import fp from 'fastify-plugin';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { registerRoute } from '../http/register-route.js';
import { makeExampleInChild } from './gallery-child-process.js';
import { GALLERY_RECIPES, GALLERY_URL_PREFIX, readExample, saveExample, type makeExample } from './gallery-maker.js';

export interface GalleryPluginOptions {
  /**
   * Makes one example (tests inject a quick one); default: the product's offline generator in a
   * low-priority child process that starts and runs only while no creator's job or request waits.
   */
  make?: typeof makeExample;
  /** Wait after the server starts listening before making anything (default GALLERY_START_DELAY_MS). */
  startDelayMs?: number;
}

/** The first visitors after a start get their pages before any of the examples' work begins. */
const GALLERY_START_DELAY_MS = 5_000;

const abortableDelay = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

/**
 * The visitor page's example videos: GET /api/gallery lists the ready ones, their files are served
 * under /gallery/ (names carry the recipe's hash, so they are cached for a year). Missing examples are
 * made once the server listens, one at a time, each in a low-priority process of its own that pauses
 * whenever a creator's job or a request waits (BackgroundGate); GALLERY_EXAMPLES=off
 * skips all of it.
 */
export const galleryPlugin = fp<GalleryPluginOptions>(
  async (app, options) => {
    const enabled = app.config.galleryExamples;
    const dir = join(app.config.paths.dataDir, 'gallery');
    const examples = new Map<string, GalleryExample>();
    let state: GalleryState = enabled ? 'making' : 'off';
    const abort = new AbortController();
    let making: Promise<void> | null = null;

    if (enabled) {
      mkdirSync(dir, { recursive: true });
      for (const recipe of GALLERY_RECIPES) {
        const example = readExample(dir, recipe);
        if (example) examples.set(recipe.slug, example);
      }
      if (examples.size === GALLERY_RECIPES.length) state = 'ready';
      await app.register(fastifyStatic, {
        root: dir,
        prefix: GALLERY_URL_PREFIX,
        decorateReply: false,
        index: false,
        // Only the made files: the work folder and the records stay private.
        allowedPath: (path) => /^\/[a-z]+-[0-9a-f]{12}\.(mp4|jpg)$/.test(path),
        cacheControl: true,
        maxAge: '365d',
        immutable: true,
      });
    }

    registerRoute(app, API.gallery, async (_request, reply) => {
      // Short: a visitor who comes back while the examples are being made sees them once they are.
      reply.header('cache-control', state === 'ready' || state === 'off' ? 'public, max-age=300' : 'no-cache');
      return { state, examples: GALLERY_RECIPES.flatMap((recipe) => examples.get(recipe.slug) ?? []) };
    });

    if (enabled && state === 'making') {
      app.addHook('onListen', async () => {
        // Not awaited: the server answers while the examples are made.
        making = (async () => {
          await abortableDelay(options.startDelayMs ?? GALLERY_START_DELAY_MS, abort.signal);
          for (const recipe of GALLERY_RECIPES) {
            if (examples.has(recipe.slug)) continue;
            const started = performance.now();
            const example = options.make
              ? await options.make(dir, recipe, { signal: abort.signal })
              : await makeExampleInChild(dir, recipe, { gate: app.background, signal: abort.signal });
            saveExample(dir, recipe, example);
            examples.set(recipe.slug, example);
            app.log.info({ example: recipe.slug, seconds: Math.round((performance.now() - started) / 100) / 10 }, 'gallery example made');
          }
          state = 'ready';
        })().catch((error: unknown) => {
          if (abort.signal.aborted) return;
          state = 'failed';
          app.log.warn({ err: error }, 'the gallery examples could not be made; the visitor page shows the ones that are ready');
        });
      });
    }
    app.addHook('onClose', async () => {
      abort.abort();
      await making;
    });
  },
  { name: 'gallery', fastify: '5.x', dependencies: ['config', 'error-handler', 'background'] },
);
