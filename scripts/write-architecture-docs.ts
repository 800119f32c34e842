/** `npm run docs:architecture`: rewrites docs/architecture.md's layer lists from folder-layers.config.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withLayerLists } from './architecture-layers.js';

const PAGE = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(PAGE, withLayerLists(readFileSync(PAGE, 'utf8')));
console.log('docs/architecture.md: layer lists written');
