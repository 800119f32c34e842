import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The studio's folders are layers (ui, routes, preferences and styles at the bottom; app and embed
 * on top; README lists the order): a folder may use a lower one, never one that uses it back. eslint's import-x/no-cycle catches file cycles; this
 * catches folder cycles, which tangle the code long before files do. Files at the root are single
 * modules (platform.ts is the seam to the host, services.ts composes the services), and tests are
 * left out: they may reach anywhere.
 */
const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A file's module: its top folder under src, or the file itself when it sits at the root. */
function moduleOf(path: string): string {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!;
}

function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(root)) {
    if (relative(root, file) === 'index.ts') continue; // the package's entry re-exports every layer
    const from = moduleOf(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = moduleOf(normalize(join(dirname(file), fileName)));
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), `${relative(root, file)} → ${fileName}`]);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each cycle as a path of modules with the imports that close it (depth-first search on the graph). */
function cyclesIn(graph: Map<string, Map<string, string[]>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const cycle = [...path.slice(path.indexOf(next)), next];
        found.push(cycle.map((module, i) => (i + 1 < cycle.length ? `${module} (${graph.get(module)!.get(cycle[i + 1]!)![0]})` : module)).join(' → '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

describe("the studio's folders", () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a/', new Map([['b/', ['a/x.ts → ../b/y.js']]])],
      ['b/', new Map([['c/', ['b/y.ts → ../c/z.js']]])],
      ['c/', new Map([['a/', ['c/z.ts → ../a/x.js']]])],
    ]);
    expect(cyclesIn(graph)).toEqual(['a/ (a/x.ts → ../b/y.js) → b/ (b/y.ts → ../c/z.js) → c/ (c/z.ts → ../a/x.js) → a/']);
    graph.get('c/')!.delete('a/');
    expect(cyclesIn(graph)).toEqual([]);
  });

  it('sees the imports between folders', () => {
    const graph = folderGraph();
    expect(graph.get('app/')?.has('shell/')).toBe(true);
    expect(graph.get('shell/')?.has('ui/')).toBe(true);
  });

  it('import each other in one direction only', () => {
    expect(cyclesIn(folderGraph())).toEqual([]);
  });
});
