// A process started the way `npm start` and `npm run worker` start the server (node --import tsx):
// it runs one sandbox task and prints its result.
import { SandboxPool } from './worker-pool.js';

const pool = new SandboxPool();
const result = await pool.run({ module: new URL('./sandbox-test-tasks.ts', import.meta.url).href, name: 'echo', args: ['from tsx'] });
process.stdout.write(`${String(result)}\n`);
await pool.close();
