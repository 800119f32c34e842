import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 12: `npm install && npm start` must render captions on a machine with no ffmpeg and no Noto
 * fonts of its own. A private mount namespace hides the system's binaries and fonts from the render
 * (tmpfs over the font folders and fontconfig's cache, /dev/null over ffmpeg and ffprobe), so only
 * what npm installed is left; the result is checked from outside with the system's ffprobe.
 */
const root = resolve(import.meta.dirname, '../..');
const outDir = mkdtempSync(join(tmpdir(), 'fresh-machine-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const HIDE = [
  ...['/usr/share/fonts', '/usr/local/share/fonts', '/var/cache/fontconfig'].filter(existsSync).map((dir) => `mount -t tmpfs none ${dir}`),
  ...['/usr/bin/ffmpeg', '/usr/bin/ffprobe', '/usr/local/bin/ffmpeg', '/usr/local/bin/ffprobe'].filter(existsSync).map((bin) => `mount --bind /dev/null ${bin}`),
].join(' && ');

const namespaces = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs none /mnt'], { encoding: 'utf8' });
const canHide = namespaces.status === 0;

function renderHidden(language: string): { videoPath: string; ffmpegSource: string; ffprobePath: string | null; fontSource: string; fontPath: string } {
  const script = `${HIDE || 'true'} && test ! -x /usr/bin/ffmpeg && ! ls /usr/share/fonts/* >/dev/null 2>&1 && exec ${join(root, 'node_modules/.bin/tsx')} tests/integration/fixtures/fresh-machine-render.ts ${language} ${outDir}`;
  const out = execFileSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { cwd: root, encoding: 'utf8', env: { ...process.env, FFMPEG_PATH: '', FFPROBE_PATH: '' } });
  return JSON.parse(out.trim().split('\n').pop()!);
}

function ffprobe(path: string): { streams: { codec_type: string; codec_name: string; nb_read_frames?: string; width?: number }[]; format: { duration: string } } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', path], { encoding: 'utf8' }));
}

/** Share of pixels in the frame at `seconds` that are far from the flat picture's colour (drawn text). */
function textShare(video: string, seconds: number): number {
  const gray = execFileSync('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 24 });
  const background = gray[0]!;
  let far = 0;
  for (const value of gray) if (Math.abs(value - background) > 60) far++;
  return far / gray.length;
}

describe.skipIf(!canHide)('fresh machine render (no system ffmpeg, ffprobe or fonts)', () => {
  for (const language of ['en', 'hi', 'ja']) {
    it(`renders a captioned 30 s video in ${language} with only npm's ffmpeg and fonts`, () => {
      const result = renderHidden(language);
      expect(result.ffmpegSource).toBe('bundled');
      expect(result.ffprobePath).toContain('@ffprobe-installer');
      expect(result.fontSource).toBe('npm');
      expect(result.fontPath).toContain('node_modules/@expo-google-fonts/');

      const probe = ffprobe(result.videoPath);
      const video = probe.streams.find((stream) => stream.codec_type === 'video')!;
      expect(video.codec_name).toBe('h264');
      expect(probe.streams.some((stream) => stream.codec_type === 'audio' && stream.codec_name === 'aac')).toBe(true);
      expect(Number(probe.format.duration)).toBeCloseTo(30, 0);
      expect(Number(video.nb_read_frames)).toBe(900);
      // Words are on screen at 5 s and 20 s: the font drew glyphs (a missing font draws nothing here).
      expect(textShare(result.videoPath, 5.3)).toBeGreaterThan(0.002);
      expect(textShare(result.videoPath, 20.3)).toBeGreaterThan(0.002);
    }, 180_000);
  }
});
