/**
 * `npm run docs:config`: rewrites the variable tables of docs/configuration.md from the config
 * schemas' own lists (CONFIG_VARIABLES, derived from the server's schema in config-schema.ts, and
 * PIPELINE_ENV_VARIABLES for the generator), so the page cannot drift from what the code reads;
 * tests/integration/docs.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PIPELINE_ENV_VARIABLES } from '../packages/pipeline/src/pipeline-config.js';
import { variablesMarkdownTable as table } from '../packages/server/src/config-docs.js';
import { CONFIG_VARIABLES } from '../packages/server/src/config-schema.js';

const PAGE = new URL('../docs/configuration.md', import.meta.url);

let page = readFileSync(PAGE, 'utf8');
for (const [marker, variables] of [
  ['<!-- generated from CONFIG_VARIABLES in packages/server/src/config-schema.ts; a test keeps this in step -->', CONFIG_VARIABLES],
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
