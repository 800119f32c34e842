import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PIPELINE_ENV_VARIABLES } from '../../packages/pipeline/src/pipeline-config.js';
import { CONFIG_VARIABLES } from '../../packages/server/src/config.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

/** The README row of a variable, as the generated tables write it. */
function rowOf(name: string): string | undefined {
  return readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
}

describe('README', () => {
  it('documents every server and generator variable with its default and description', () => {
    for (const variable of [...CONFIG_VARIABLES, ...PIPELINE_ENV_VARIABLES]) {
      const row = rowOf(variable.name);
      expect(row, `${variable.name} is missing from the README`).toBeDefined();
      expect(row).toContain(variable.default.replace(/\|/g, '\\|'));
      expect(row).toContain(variable.description.replace(/\|/g, '\\|'));
    }
  });

  it('documents every build-time variable the web app and extension read', () => {
    for (const name of [
      'VITE_API_BASE_URL',
      'VITE_WEB_APP_ORIGINS',
      'VITE_EXTENSION_ID',
      'VITE_EXTENSION_STORE_URL',
      'VITE_BYPASS_AUTH',
      'EXTENSION_OUT_DIR',
    ]) {
      expect(rowOf(name), `${name} is missing from the README`).toBeDefined();
    }
  });

  it('gives exactly the two set-up commands, and both exist', () => {
    const setUp = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('Other commands'));
    const commands = [...setUp.matchAll(/```sh\n([^`]+)```/g)].map((match) => match[1]!.trim());
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
    expect(rootPackage.scripts.start).toBeDefined();
    expect(rootPackage.scripts.test).toBeDefined();
  });

  it('lists only npm scripts that exist', () => {
    for (const [, script] of readme.matchAll(/`npm run ([a-z:-]+)/g)) {
      expect(rootPackage.scripts[script!], `npm run ${script}`).toBeDefined();
    }
  });

  it("lists every entry point each package's package.json exports", () => {
    const packages = ['contracts', 'pipeline', 'server', 'studio', 'sdk', 'mcp'];
    // The list reads `@reelsmith/studio`, `/embed`, …; one package's entries end at the next `;` or `)`.
    const listed = (name: string) => readme.match(new RegExp('`@reelsmith/' + name + '`([^;)]*)'))?.[1] ?? '';
    for (const name of packages) {
      const manifest = JSON.parse(readFileSync(new URL(`../../packages/${name}/package.json`, import.meta.url), 'utf8')) as {
        exports: Record<string, string>;
      };
      expect(readme, `@reelsmith/${name}`).toContain(`\`@reelsmith/${name}\``);
      for (const entry of Object.keys(manifest.exports).filter((key) => key !== '.'))
        expect(listed(name), `@reelsmith/${name}${entry.slice(1)}`).toContain(`\`${entry.slice(1)}\``);
    }
  });
});
