// `npm run serve` / `npm run worker` / `npm run admin -- …`: the server's compiled JavaScript
// (scripts/node-bundle.mjs; rebuilt when a source changed), not TypeScript compiled at every start.
import { ensureBundles, SERVER_BUNDLE_DIR, SERVER_ENTRIES } from './node-bundle.mjs';

const which = process.argv[2];
if (!(which in SERVER_ENTRIES)) {
  console.error(`usage: node scripts/run-server.mjs ${Object.keys(SERVER_ENTRIES).join('|')} [arguments]`);
  process.exit(2);
}
// The entry reads its own arguments from process.argv after the script's name, as when run directly.
process.argv.splice(2, 1);
// The entry runs in this process, so npm's forwarded SIGTERM reaches it directly (the npm scripts
// `exec` node: no shell in between to swallow it). A parent that goes without passing a stop on
// (npm killed with SIGKILL) leaves this process with a new parent: it drains as on SIGTERM instead
// of running on as an orphan.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) process.kill(process.pid, 'SIGTERM');
}, 500).unref();
const bundles = await ensureBundles(SERVER_ENTRIES, SERVER_BUNDLE_DIR);
await import(bundles[which]);
