import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The contracts get no Node types (they run in the browser too): TypeScript's own sys reads the files.
const dir = decodeURIComponent(new URL('.', import.meta.url).pathname);
const read = (name: string): string => ts.sys.readFile(`${dir}${name}`) ?? '';

/**
 * Modules the index leaves out on purpose: the route() helper is how the route modules are written,
 * not something a client calls (its types reach the index through routes.ts), and zod.ts configures
 * the zod instance every module imports.
 */
const INTERNAL_MODULES = new Set(['route-contract.ts', 'zod.ts']);

/** The names a module exports, read from its syntax (declarations, `export { … }` lists and re-exports). */
function exportedNames(source: string): Set<string> {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause) throw new Error('`export *` hides which names a module gives: list them');
      if (ts.isNamedExports(statement.exportClause)) for (const element of statement.exportClause.elements) names.add(element.name.text);
      continue;
    }
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

function modules(): string[] {
  return ts.sys
    .readDirectory(dir, ['.ts'], undefined, undefined, 1)
    .map((path) => path.slice(path.lastIndexOf('/') + 1))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'index.ts' && !INTERNAL_MODULES.has(name));
}

describe("the contracts' index", () => {
  it('reads declarations, export lists and re-exports', () => {
    const names = exportedNames(
      "export const a = 1;\nexport type B = string;\nexport interface C {}\nexport function d() {}\nconst e = 2;\nexport { e as f };\nexport type { G } from './g.js';\n",
    );
    expect([...names].sort()).toEqual(['B', 'C', 'a', 'd', 'f', 'G'].sort());
    expect(() => exportedNames("export * from './x.js';")).toThrow(/list them/);
  });

  it('lists every name each module exports', () => {
    const listed = exportedNames(read('index.ts'));
    const missing = modules().flatMap((module) =>
      [...exportedNames(read(module))].filter((name) => !listed.has(name)).map((name) => `${name} (${module})`),
    );
    expect(missing).toEqual([]);
  });

  it('re-exports only from modules that exist', () => {
    const index = ts.createSourceFile('index.ts', read('index.ts'), ts.ScriptTarget.ES2022);
    const sources = index.statements
      .filter(ts.isExportDeclaration)
      .map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text.replace(/^\.\//, '').replace(/\.js$/, '.ts'));
    expect(sources.filter((module) => !modules().includes(module))).toEqual([]);
  });
});
