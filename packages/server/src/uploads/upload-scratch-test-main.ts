// A process that exits with an upload's scratch folder still in use (upload-scratch.test.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeUploadScratch } from './upload-scratch.js';

const dir = await makeUploadScratch(process.argv[2]);
writeFileSync(join(dir, 'received'), 'half an upload');
process.stdout.write(`${dir}\n`);
// The shutdown grace ran out: the process ends without the upload's own clean-up.
process.exit(0);
