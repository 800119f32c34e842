/**
 * `npm run docs:config`: rewrites the variable tables of docs/configuration.md from the config
 * schemas' own lists (CONFIG_VARIABLES for the server, PIPELINE_ENV_VARIABLES for the generator),
 * so the page cannot drift from what the code reads; tests/integration/docs.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PIPELINE_ENV_VARIABLES } from '../packages/pipeline/src/pipeline-config.js';
import { CONFIG_VARIABLES } from '../packages/server/src/config.js';

const PAGE = new URL('../docs/configuration.md', import.meta.url);
const escape = (text: string) => text.replace(/\|/g, '\\|');
const table = (variables: ReadonlyArray<{ name: string; default: string; description: string }>) =>
  [
    '| Variable | Default | Description |',
    '|---|---|---|',
    ...variables.map((v) => `| \`${v.name}\` | ${escape(v.default)} | ${escape(v.description)} |`),
  ].join('\n');

let page = readFileSync(PAGE, 'utf8');
for (const [marker, variables] of [
  ['<!-- generated from CONFIG_VARIABLES in packages/server/src/config.ts; a test keeps this in step -->', CONFIG_VARIABLES],
  [
    '<!-- generated from PIPELINE_ENV_VARIABLES in packages/pipeline/src/pipeline-config.ts; a test keeps this in step -->',
    PIPELINE_ENV_VARIABLES,
  ],
] as const) {
  const start = page.indexOf(marker);
  if (start < 0) throw new Error(`docs/configuration.md lacks the marker ${marker}`);
  const tableStart = start + marker.length + 1;
  const tableEnd = page.indexOf('\n\n', tableStart);
  page = page.slice(0, tableStart) + table(variables) + page.slice(tableEnd === -1 ? page.length : tableEnd);
}
writeFileSync(PAGE, page);
console.log('docs/configuration.md: variable tables written');
