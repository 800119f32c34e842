import GithubSlugger from 'github-slugger';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PIPELINE_ENV_VARIABLES } from '../../packages/pipeline/src/pipeline-config.js';
import { CONFIG_VARIABLES } from '../../packages/server/src/config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const pages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const everyPage = ['README.md', ...pages];
const configuration = read('docs/configuration.md');
const rootPackage = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** The row of a variable in the configuration page, as the generated tables write it. */
function rowOf(name: string): string | undefined {
  return configuration.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
}

/** The anchors GitHub gives a Markdown file's headings. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (heading) anchors.add(slugger.slug(heading[1]!));
  }
  return anchors;
}

describe('README and docs/', () => {
  it('keep the README to one screen: what it is, the two commands, where to go next', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(45);
    const setUp = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('Other commands'));
    const commands = [...setUp.matchAll(/```sh\n([^`]+)```/g)].map((match) => match[1]!.trim());
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    expect(rootPackage.scripts.start).toBeDefined();
    expect(rootPackage.scripts.test).toBeDefined();
    // Every page of docs/ is reachable from the README.
    for (const page of pages) expect(readme, page).toContain(`](${page})`);
  });

  it('document every server and generator variable with its default and description (generated from the config schemas)', () => {
    for (const variable of [...CONFIG_VARIABLES, ...PIPELINE_ENV_VARIABLES]) {
      const row = rowOf(variable.name);
      expect(row, `${variable.name} is missing from docs/configuration.md`).toBeDefined();
      expect(row).toContain(variable.default.replace(/\|/g, '\\|'));
      expect(row).toContain(variable.description.replace(/\|/g, '\\|'));
    }
  });

  it('document every build-time variable the web app and extension read', () => {
    for (const name of [
      'VITE_API_BASE_URL',
      'VITE_WEB_APP_ORIGINS',
      'VITE_EXTENSION_ID',
      'VITE_EXTENSION_STORE_URL',
      'VITE_BYPASS_AUTH',
      'EXTENSION_OUT_DIR',
    ]) {
      expect(rowOf(name), `${name} is missing from docs/configuration.md`).toBeDefined();
    }
  });

  it('name only npm scripts that exist', () => {
    for (const page of everyPage)
      for (const [, script] of read(page).matchAll(/`npm run ([a-z:-]+)/g)) {
        expect(rootPackage.scripts[script!], `npm run ${script} (${page})`).toBeDefined();
      }
  });

  it('link only to files and headings that exist', () => {
    const links: string[] = [];
    for (const page of everyPage) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // http(s), mailto: outside the repository
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), path);
        links.push(`${page} → ${target}`);
        expect(existsSync(file), `${page} links to ${target}, which does not exist`).toBe(true);
        if (anchor && file.endsWith('.md'))
          expect(anchorsOf(readFileSync(file, 'utf8')), `${page} links to ${target}: no such heading in ${relative(root, file)}`).toContain(
            anchor,
          );
      }
    }
    expect(links.length).toBeGreaterThan(pages.length);
  });

  it("lists every entry point each package's package.json exports", () => {
    const architecture = read('docs/architecture.md');
    const packages = ['contracts', 'pipeline', 'server', 'studio', 'sdk', 'mcp'];
    // The list reads `@reelsmith/studio`, `/embed`, …; one package's entries end at the next `;` or `)`.
    const listed = (name: string) => architecture.match(new RegExp('`@reelsmith/' + name + '`([^;)]*)'))?.[1] ?? '';
    for (const name of packages) {
      const manifest = JSON.parse(read(`packages/${name}/package.json`)) as { exports: Record<string, string> };
      expect(architecture, `@reelsmith/${name}`).toContain(`\`@reelsmith/${name}\``);
      for (const entry of Object.keys(manifest.exports).filter((key) => key !== '.'))
        expect(listed(name), `@reelsmith/${name}${entry.slice(1)}`).toContain(`\`${entry.slice(1)}\``);
    }
  });
});
