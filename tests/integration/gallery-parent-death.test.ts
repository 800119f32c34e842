import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

/**
 * A server killed with kill -9 runs no exit handler: the gallery example it was making in a child
 * process must not render on for nobody until the example ends (issue 54). The parent here is a small
 * process that starts the child exactly as the server does (makeExampleInChild), then is killed.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gallery-parent-death-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statOf(pid: number): { state: string; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return null;
  }
}
const alive = (pid: number) => {
  const stat = statOf(pid);
  return stat !== null && stat.state !== 'Z';
};

/** The gallery child the parent started: its child running gallery-child.ts. */
function galleryChildOf(parentPid: number): number | null {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || statOf(pid)?.ppid !== parentPid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gallery-child.ts')) return pid;
    } catch {
      // Ended meanwhile.
    }
  }
  return null;
}

const started: number[] = [];
afterEach(() => {
  // Whatever a failed run left: the child's whole group (it leads one, with its ffmpeg).
  for (const pid of started.splice(0))
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startParent(name: string): Promise<{ parent: ChildProcess; child: number }> {
  const script = `
    import { makeExampleInChild } from './packages/server/src/gallery/gallery-child-process.ts';
    import { GALLERY_RECIPES } from './packages/server/src/gallery/gallery-maker.ts';
    const gate = { busyReason: async () => null, whenIdle: async () => undefined };
    makeExampleInChild(${JSON.stringify(join(dir, name))}, GALLERY_RECIPES[0], { gate }).catch(() => undefined);
    setInterval(() => undefined, 1000);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let child: number | null = null;
  for (let waited = 0; child === null; waited += 100) {
    if (waited > 30_000) throw new Error('the gallery child did not start');
    await sleep(100);
    child = galleryChildOf(parent.pid!);
  }
  started.push(child);
  // Well into its work (loading the pipeline, writing the story), not at its first line.
  await sleep(1_500);
  expect(alive(child)).toBe(true);
  return { parent, child };
}

async function expectGoneWithin(pid: number, ms: number): Promise<number> {
  const since = performance.now();
  while (alive(pid)) {
    if (performance.now() - since > ms)
      throw new Error(`the gallery child ${pid} outlived its parent by ${ms} ms (${JSON.stringify(statOf(pid))})`);
    await sleep(50);
  }
  return performance.now() - since;
}

// It reads a process's parent from /proc (Linux); in CI (Linux) its absence fails the run instead of skipping.
describe.skipIf(!existsSync('/proc/self/stat') && !process.env.CI)('the gallery example process of a server killed with kill -9', () => {
  it('stops its example and exits within a few seconds', async () => {
    const { parent, child } = await startParent('running');
    parent.kill('SIGKILL');
    const took = await expectGoneWithin(child, 5_000);
    console.info(`gallery child gone ${Math.round(took)} ms after its parent's kill -9`);
  }, 60_000);

  it('exits too when the server died while it held the example paused (SIGSTOP, creators busy)', async () => {
    const { parent, child } = await startParent('paused');
    // What pauseWhileBusy does while creators' jobs wait: the child's whole group stopped.
    process.kill(-child, 'SIGSTOP');
    await sleep(200);
    expect(statOf(child)?.state).toBe('T');
    parent.kill('SIGKILL');
    await expectGoneWithin(child, 5_000);
  }, 60_000);
});
