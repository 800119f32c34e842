import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAYERS_END, LAYERS_START, layerListsMarkdown, withLayerLists } from './architecture-layers.js';

const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');

describe("docs/architecture.md's layer lists", () => {
  it('are the ones folder-layers.config.ts holds the code to (npm run docs:architecture writes them)', () => {
    expect(withLayerLists(page)).toBe(page);
  });

  it('list every layer in order, name the features, and call the flat packages flat', () => {
    const section = layerListsMarkdown({
      flat: { root: 'packages/flat/src', layers: [] },
      app: { root: 'packages/app/src', layers: ['ui/', 'shared/', 'videos/', 'studio/', 'app.ts'], features: ['videos/', 'studio/'] },
    });
    expect(section.split('\n')).toEqual([
      LAYERS_START,
      '- **flat** (`packages/flat/src/`): flat; only the file-circle rule applies.',
      '- **app** (`packages/app/src/`), lowest first: `ui/`, `shared/`, `videos/`, `studio/`, `app.ts`. Its features never import one another, whatever their order: `videos/`, `studio/`.',
      LAYERS_END,
    ]);
  });

  it('fails on a page whose lists drifted', () => {
    const drifted = page.replace(/`sandbox\/`, /, '');
    expect(drifted).not.toBe(page);
    expect(withLayerLists(drifted)).not.toBe(drifted);
    expect(() => withLayerLists('# Architecture\n')).toThrow(/markers/);
  });
});
