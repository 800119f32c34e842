// Checks folder-layers.config.ts against the code: every import between two entries of a package
// goes from a higher layer to a lower one, and no two files import each other in a circle (type-only
// imports included, which import-x/no-cycle skips). `npx tsx scripts/folder-layers.ts` prints the
// report; scripts/folder-layers.test.ts runs it in `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { FOLDER_LAYERS, TEMPORARY_ALLOWED_CYCLES, TEMPORARY_ALLOWED_IMPORTS, type FolderLayers } from '../folder-layers.config.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One import between two files of a package, paths relative to the package's layered folder. */
export interface FileImport {
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
}

const SOURCE = /\.(tsx?|mts|mjs|js)$/;
// Tests (`x.test.ts`) may reach anywhere. Their harnesses and fixtures (`dialect-test-database.ts`)
// are sources like any other: a harness that imports up the layers is a folder circle all the same
// (story/summary-test-bench.ts imported runner/ while runner/ imports story/; benches live in bench/).
const NOT_SOURCE = /\.test\.tsx?$|\.d\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The file an import names, the way the bundler and TypeScript find it (`./x.js` is `./x.ts`), or undefined outside the sources. */
function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = normalize(join(dirname(fromFile), specifier));
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile() && SOURCE.test(path) && !NOT_SOURCE.test(path));
}

/** Every relative import (static, dynamic, re-export, type-only) between the non-test source files under `root`. */
export function importsUnder(root: string): FileImport[] {
  const absoluteRoot = join(REPO_ROOT, root);
  return sourceFiles(absoluteRoot).flatMap((file) =>
    ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.flatMap(({ fileName }) => {
      if (!fileName.startsWith('.')) return [];
      const target = resolveImport(file, fileName);
      if (!target || relative(absoluteRoot, target).startsWith('..')) return [];
      return [
        {
          from: relative(absoluteRoot, file).split(sep).join('/'),
          to: relative(absoluteRoot, target).split(sep).join('/'),
          specifier: fileName,
        },
      ];
    }),
  );
}

/** The layer entry a file belongs to: its top folder (`jobs/`), or the file itself at the root. */
export function entryOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash + 1);
}

/** The entries of one package that exist on disk: its top folders and root-level source files. */
function entriesOnDisk(root: string): string[] {
  return readdirSync(join(REPO_ROOT, root), { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return [`${entry.name}/`];
    return SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name) ? [entry.name] : [];
  });
}

/**
 * What is wrong with one package's layers: imports that go up or sideways, imports from one feature
 * into another, folders the config does not place, entries it places that are gone. `allowed` are
 * `from → to` entry pairs let through.
 */
export function layerProblems(
  name: string,
  layers: FolderLayers,
  imports: readonly FileImport[],
  onDisk: readonly string[],
  allowed: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const rank = new Map(layers.layers.map((entry, index) => [entry, index]));
  // Unlisted root-level files are the top layer: composition roots (index.ts, app.ts, main.ts) that
  // may import anything of the package and that nothing listed may import.
  const rankOf = (entry: string) => rank.get(entry) ?? (entry.endsWith('/') ? undefined : Number.POSITIVE_INFINITY);
  for (const entry of onDisk)
    if (entry.endsWith('/') && !rank.has(entry))
      problems.push(`${name}: ${layers.root}/${entry} has no layer: place it in folder-layers.config.ts`);
  for (const entry of layers.layers)
    if (!onDisk.includes(entry)) problems.push(`${name}: folder-layers.config.ts places ${layers.root}/${entry}, which does not exist`);
  const features = new Set(layers.features ?? []);
  for (const feature of features)
    if (!rank.has(feature)) problems.push(`${name}: folder-layers.config.ts names ${feature} a feature but not a layer: list it in layers`);
  const reported = new Set<string>();
  for (const { from, to, specifier } of imports) {
    const [fromEntry, toEntry] = [entryOf(from), entryOf(to)];
    if (fromEntry === toEntry) continue;
    if (features.has(fromEntry) && features.has(toEntry)) {
      const edge = `${fromEntry} → ${toEntry}`;
      if (allowed.has(edge) || reported.has(edge)) continue;
      reported.add(edge);
      problems.push(
        `${name}: ${edge} joins two features (features talk through the shared layers below them): ${from} imports '${specifier}'`,
      );
      continue;
    }
    const [fromRank, toRank] = [rankOf(fromEntry), rankOf(toEntry)];
    if (fromRank === undefined || toRank === undefined) continue; // reported above as having no layer
    if (fromRank === Number.POSITIVE_INFINITY || toRank < fromRank) continue;
    const edge = `${fromEntry} → ${toEntry}`;
    if (allowed.has(edge) || reported.has(edge)) continue;
    reported.add(edge);
    const where =
      toRank === Number.POSITIVE_INFINITY ? `${toEntry} is an unlisted root file (top layer)` : `${toEntry} is not below ${fromEntry}`;
    problems.push(`${name}: ${edge} goes up the layers (${where}): ${from} imports '${specifier}'`);
  }
  return problems;
}

/** The `from → to` entry pairs of the imports that go up or sideways or join two features (what the allow-list may name). */
export function upwardEdges(layers: FolderLayers, imports: readonly FileImport[]): Set<string> {
  const rank = new Map(layers.layers.map((entry, index) => [entry, index]));
  const rankOf = (entry: string) => rank.get(entry) ?? (entry.endsWith('/') ? -1 : Number.POSITIVE_INFINITY);
  const features = new Set(layers.features ?? []);
  const edges = new Set<string>();
  for (const { from, to } of imports) {
    const [fromEntry, toEntry] = [entryOf(from), entryOf(to)];
    if (fromEntry === toEntry) continue;
    const betweenFeatures = features.has(fromEntry) && features.has(toEntry);
    if (betweenFeatures || (rankOf(fromEntry) !== Number.POSITIVE_INFINITY && rankOf(toEntry) >= rankOf(fromEntry)))
      edges.add(`${fromEntry} → ${toEntry}`);
  }
  return edges;
}

/** The files that import each other in a circle, each circle as its sorted files (Tarjan's strongly connected components). */
export function fileCycles(imports: readonly FileImport[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (next.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every problem in the repository, with the allow-list entries that no longer match anything. */
export function checkRepository(): string[] {
  const problems: string[] = [];
  for (const [name, layers] of Object.entries(FOLDER_LAYERS)) {
    const imports = importsUnder(layers.root);
    const allowedImports = TEMPORARY_ALLOWED_IMPORTS.filter((entry) => entry.package === name);
    const allowed = new Set(allowedImports.map((entry) => `${entry.from} → ${entry.to}`));
    problems.push(...layerProblems(name, layers, imports, entriesOnDisk(layers.root), allowed));
    const upward = upwardEdges(layers, imports);
    for (const edge of allowed)
      if (!upward.has(edge))
        problems.push(`${name}: TEMPORARY_ALLOWED_IMPORTS lets ${edge} through, which no import needs any more: delete the entry`);

    const allowedCycles = TEMPORARY_ALLOWED_CYCLES.filter((entry) => entry.package === name).map((entry) =>
      [...entry.files].sort().join(' ↔ '),
    );
    const cycles = fileCycles(imports).map((files) => files.join(' ↔ '));
    for (const cycle of cycles)
      if (!allowedCycles.includes(cycle)) problems.push(`${name}: files import each other in a circle: ${cycle} (under ${layers.root})`);
    for (const cycle of allowedCycles)
      if (!cycles.includes(cycle))
        problems.push(`${name}: TEMPORARY_ALLOWED_CYCLES lets ${cycle} through, which is no circle any more: delete the entry`);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const problems = checkRepository();
  for (const problem of problems) console.log(problem);
  console.log(problems.length ? `${problems.length} folder-layer problems` : 'folder layers: ok');
  process.exitCode = problems.length ? 1 : 0;
}
