import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A worker killed with kill -9 runs no exit handler: its ffmpeg must still die with it (run-ffmpeg
 * starts ffmpeg under `setpriv --pdeathsig KILL`), rather than render on for a job another worker
 * now owns.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.skipIf(!existsSync('/usr/bin/setpriv') && !existsSync('/bin/setpriv'))('ffmpeg of a process killed with kill -9', () => {
  it('dies with it', async () => {
    const script = `
      import { runFfmpeg, resolveFfmpegBinaries } from '@reelsmith/pipeline';
      const { ffmpegPath } = resolveFfmpegBinaries();
      void runFfmpeg(ffmpegPath, ['-re', '-f', 'lavfi', '-i', 'anullsrc', '-t', '600', '-f', 'null', '-'], {
        onSpawn: (pid) => process.stdout.write(pid + '\\n'),
      }).catch(() => undefined);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ffmpegPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.setEncoding('utf8');
      parent.stdout.on('data', (chunk: string) => resolve(Number(chunk.trim().split('\n')[0])));
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before ffmpeg started`)));
    });
    await sleep(300);
    expect(alive(ffmpegPid)).toBe(true);
    parent.kill('SIGKILL');
    for (let waited = 0; alive(ffmpegPid); waited += 50) {
      if (waited > 5_000) {
        process.kill(ffmpegPid, 'SIGKILL');
        throw new Error('ffmpeg outlived its parent');
      }
      await sleep(50);
    }
  }, 60_000);
});
