import { setPriority } from 'node:os';
import { BACKGROUND_NICENESS, GALLERY_RECIPES, makeExample } from './gallery-maker.js';

/*
 * One gallery example, made in a process of its own (gallery-child-process.ts starts it): the
 * offline pictures are drawn on a JavaScript thread and the story and voice steps run here too, so
 * none of it runs on the API's event loop. Its priority, and that of every ffmpeg it starts, is the
 * lowest. Arguments: the gallery folder and the recipe's slug; the example comes back over IPC.
 */

try {
  setPriority(0, BACKGROUND_NICENESS);
} catch {
  // The parent lowers it as well; a system that refuses leaves it at normal priority.
}

const [dir, slug] = process.argv.slice(2);
const recipe = GALLERY_RECIPES.find((candidate) => candidate.slug === slug);
const controller = new AbortController();
process.once('SIGTERM', () => controller.abort());

const reply = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (!process.send) return resolve();
    process.send(message, () => resolve());
  });

try {
  if (!dir || !recipe) throw new Error(`No gallery recipe "${slug ?? ''}"`);
  const example = await makeExample(dir, recipe, { signal: controller.signal });
  await reply({ example });
} catch (error) {
  await reply({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
}
process.disconnect?.();
