/**
 * The script the extension injects into a page when the creator asks for a video of it (built on
 * its own, Readability included, by vite.config.ts; never part of an extension page's bundle). It
 * leaves one function in the extension's isolated world, which the next executeScript call runs.
 */
import { readArticle } from './read-article.js';

(globalThis as typeof globalThis & { reelsmithReadArticle?: () => unknown }).reelsmithReadArticle = () => readArticle(document, location);
