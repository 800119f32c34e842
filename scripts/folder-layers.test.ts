import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLDER_LAYERS } from '../folder-layers.config.js';
import {
  checkRepository,
  entryOf,
  fileCycles,
  importsUnder,
  layerProblems,
  REPO_ROOT,
  upwardEdges,
  type FileImport,
} from './folder-layers.js';

const imports = (...pairs: [string, string][]): FileImport[] => pairs.map(([from, to]) => ({ from, to, specifier: `./${to}` }));

describe('folder layers', () => {
  const layers = { root: 'pkg/src', layers: ['errors.ts', 'db/', 'jobs/', 'app.ts'] };
  const onDisk = ['errors.ts', 'db/', 'jobs/', 'app.ts', 'main.ts'];

  it('places a file at its top folder, or at itself at the root', () => {
    expect(entryOf('jobs/queue/worker.ts')).toBe('jobs/');
    expect(entryOf('errors.ts')).toBe('errors.ts');
  });

  it('lets an entry import lower layers and itself, and the unlisted root files import anything', () => {
    const fine = imports(
      ['jobs/a.ts', 'db/b.ts'],
      ['jobs/a.ts', 'jobs/c.ts'],
      ['db/b.ts', 'errors.ts'],
      ['app.ts', 'jobs/a.ts'],
      ['main.ts', 'app.ts'],
    );
    expect(layerProblems('pkg', layers, fine, onDisk, new Set())).toEqual([]);
  });

  it('names an import that goes up, and one into an unlisted root file', () => {
    const up = imports(['db/b.ts', 'jobs/a.ts'], ['jobs/a.ts', 'main.ts']);
    expect(layerProblems('pkg', layers, up, onDisk, new Set())).toEqual([
      "pkg: db/ → jobs/ goes up the layers (jobs/ is not below db/): db/b.ts imports './jobs/a.ts'",
      "pkg: jobs/ → main.ts goes up the layers (main.ts is an unlisted root file (top layer)): jobs/a.ts imports './main.ts'",
    ]);
    expect(layerProblems('pkg', layers, up, onDisk, new Set(['db/ → jobs/', 'jobs/ → main.ts']))).toEqual([]);
    expect([...upwardEdges(layers, up)].sort()).toEqual(['db/ → jobs/', 'jobs/ → main.ts']);
  });

  it('names an import from one feature into another, even down the layers, and lets features import the shared layer', () => {
    const withFeatures = { root: 'pkg/src', layers: ['shared/', 'videos/', 'studio/', 'app.ts'], features: ['videos/', 'studio/'] };
    const disk = ['shared/', 'videos/', 'studio/', 'app.ts'];
    const fine = imports(['videos/list.tsx', 'shared/jobs.ts'], ['studio/view.tsx', 'shared/jobs.ts'], ['app.ts', 'studio/view.tsx']);
    expect(layerProblems('pkg', withFeatures, fine, disk, new Set())).toEqual([]);
    const sideways = imports(['studio/view.tsx', 'videos/list.tsx']);
    expect(layerProblems('pkg', withFeatures, sideways, disk, new Set())).toEqual([
      "pkg: studio/ → videos/ joins two features (features talk through the shared layers below them): studio/view.tsx imports './videos/list.tsx'",
    ]);
    expect([...upwardEdges(withFeatures, sideways)]).toEqual(['studio/ → videos/']);
    expect(layerProblems('pkg', withFeatures, sideways, disk, new Set(['studio/ → videos/']))).toEqual([]);
    expect(layerProblems('pkg', { ...withFeatures, features: ['videos/', 'mail/'] }, [], disk, new Set())).toEqual([
      'pkg: folder-layers.config.ts names mail/ a feature but not a layer: list it in layers',
    ]);
  });

  it('names a folder with no layer and a layer with no folder', () => {
    expect(layerProblems('pkg', layers, [], ['errors.ts', 'db/', 'jobs/', 'app.ts', 'mail/'], new Set())).toEqual([
      'pkg: pkg/src/mail/ has no layer: place it in folder-layers.config.ts',
    ]);
    expect(layerProblems('pkg', layers, [], ['errors.ts', 'jobs/', 'app.ts'], new Set())).toEqual([
      'pkg: folder-layers.config.ts places pkg/src/db/, which does not exist',
    ]);
  });

  it('finds files that import each other in a circle, through any number of files', () => {
    expect(fileCycles(imports(['a.ts', 'b.ts'], ['b.ts', 'c.ts'], ['c.ts', 'a.ts'], ['c.ts', 'd.ts'], ['d.ts', 'e.ts']))).toEqual([
      ['a.ts', 'b.ts', 'c.ts'],
    ]);
    expect(fileCycles(imports(['a.ts', 'b.ts'], ['b.ts', 'c.ts']))).toEqual([]);
  });

  it('reads the real imports between folders, tests left out', () => {
    const studio = importsUnder(FOLDER_LAYERS.studio!.root);
    expect(studio.some(({ from, to }) => from.startsWith('app/') && to.startsWith('shell/'))).toBe(true);
    expect(studio.some(({ from }) => from.endsWith('.test.ts') || from.endsWith('.test.tsx'))).toBe(false);
  });

  it('holds a test harness to the layers like any other file (the old story/summary-test-bench.ts import fails)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-layers-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      write('story/source-story.ts', 'export const tell = 1;\n');
      write('runner/narration.ts', "import { tell } from '../story/source-story.js';\nexport const SCENE_GAP_SECONDS = tell;\n");
      write(
        'story/summary-test-bench.ts',
        "import { SCENE_GAP_SECONDS } from '../runner/narration.js';\nexport const gap = SCENE_GAP_SECONDS;\n",
      );
      write('story/summary-benchmark.test.ts', "import { gap } from './summary-test-bench.js';\nexport const used = gap;\n");
      const found = importsUnder(relative(REPO_ROOT, dir));
      expect(found.map(({ from, to }) => `${from} → ${to}`).sort()).toEqual([
        'runner/narration.ts → story/source-story.ts',
        'story/summary-test-bench.ts → runner/narration.ts',
      ]);
      const pipeline = { root: 'pkg/src', layers: ['story/', 'runner/'] };
      expect(layerProblems('pkg', pipeline, found, ['story/', 'runner/'], new Set())).toEqual([
        "pkg: story/ → runner/ goes up the layers (runner/ is not below story/): story/summary-test-bench.ts imports '../runner/narration.js'",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hold in every package', () => {
    expect(checkRepository()).toEqual([]);
  });
});
