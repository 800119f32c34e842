import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { MusicMood } from '@reelsmith/contracts';
import { encodeWav, pcm16FromFloat } from '../audio/wav.js';
import { createRandom, seedFromText, type Random } from '../seeded-random.js';

/**
 * Offline background music: each mood is a short chord loop synthesised here (pad, bass, plucked
 * arpeggio, light percussion), written once as a WAV that the mixer loops under the narration. No
 * sample or model is downloaded, and the same mood always gives the same bytes, so a resumed or
 * re-rendered job reuses the file.
 */

export const MUSIC_SAMPLE_RATE = 44_100;

/**
 * The mixer's volume setting for a generated bed (music-mix.ts): about 21.6 LU under the voice while
 * words are spoken, a shade under an uploaded track's default, so a bed nobody chose stays behind.
 */
export const GENERATED_MUSIC_VOLUME_PERCENT = 25;

/** Level of the written loop: one loudness for every mood, with headroom so nothing clips after the mix. */
const RMS = 0.14;
const PEAK = 0.9;

type Pattern = 'none' | 'quarters' | 'eighths' | 'offbeats' | 'sixteenths';

interface MoodRecipe {
  bpm: number;
  barsPerChord: number;
  /** MIDI notes of each chord, lowest first; the loop plays them in order. */
  chords: number[][];
  padLevel: number;
  bass: { pattern: Pattern; level: number };
  arp: { pattern: Pattern; level: number; octave: number; decay: number };
  kick: { pattern: Pattern; level: number };
  hat: { pattern: Pattern; level: number };
  /** Occasional high bell notes (a mysterious shimmer). */
  bells: number;
  /** Low drum hits on beats one and three (drama). */
  timpani: number;
}

const SILENT = { pattern: 'none', level: 0 } as const;
const NO_ARP = { pattern: 'none', level: 0, octave: 0, decay: 0 } as const;

/**
 * A mood's recipe from what it plays: a part it leaves out is silent. The keys keep one order, as
 * the shared bed's file is named by the recipe's JSON (sharedBedPath).
 */
function recipe(parts: Pick<MoodRecipe, 'bpm' | 'barsPerChord' | 'chords' | 'padLevel'> & Partial<MoodRecipe>): MoodRecipe {
  return {
    bpm: parts.bpm,
    barsPerChord: parts.barsPerChord,
    chords: parts.chords,
    padLevel: parts.padLevel,
    bass: parts.bass ?? SILENT,
    arp: parts.arp ?? NO_ARP,
    kick: parts.kick ?? SILENT,
    hat: parts.hat ?? SILENT,
    bells: parts.bells ?? 0,
    timpani: parts.timpani ?? 0,
  };
}

/** Chords as MIDI notes, a chord's notes lowest first, the chords apart by `|`. */
const notes = (spelling: string): number[][] => spelling.split(' | ').map((chord) => chord.split(' ').map(Number));

// Chord spellings around middle C (60): roots an octave below for the bass.
// C-G-Am-F, the pop progression two moods share.
const C_G_AM_F = () => notes('60 64 67 72 | 55 59 62 67 | 57 60 64 69 | 53 57 60 65');

const RECIPES: Record<MusicMood, MoodRecipe> = {
  mysterious: recipe({
    bpm: 64,
    barsPerChord: 1,
    chords: notes('57 60 64 71 | 53 57 60 64 | 50 53 57 62 | 52 56 59 64'), // Am(add9)-Fmaj7-Dm-E
    padLevel: 0.5,
    arp: { pattern: 'eighths', level: 0.1, octave: 12, decay: 0.5 },
    bells: 0.14,
  }),
  upbeat: recipe({
    bpm: 116,
    barsPerChord: 2,
    chords: C_G_AM_F(),
    padLevel: 0.24,
    bass: { pattern: 'quarters', level: 0.34 },
    arp: { pattern: 'eighths', level: 0.2, octave: 12, decay: 0.16 },
    kick: { pattern: 'quarters', level: 0.32 },
    hat: { pattern: 'offbeats', level: 0.05 },
  }),
  calm: recipe({
    bpm: 70,
    barsPerChord: 2,
    chords: notes('60 64 67 71 | 53 57 60 64 | 57 60 64 67 | 55 59 62 65'), // Cmaj7-Fmaj7-Am7-G7sus
    padLevel: 0.46,
    arp: { pattern: 'quarters', level: 0.12, octave: 12, decay: 0.7 },
  }),
  dramatic: recipe({
    bpm: 84,
    barsPerChord: 1,
    chords: notes('50 53 57 62 | 46 50 53 58 | 43 46 50 55 | 45 49 52 57'), // Dm-Bb-Gm-A
    padLevel: 0.42,
    bass: { pattern: 'eighths', level: 0.26 },
    timpani: 0.5,
  }),
  playful: recipe({
    bpm: 128,
    barsPerChord: 1,
    chords: notes('60 64 67 | 65 69 72 | 67 71 74 | 60 64 67'), // C-F-G-C
    padLevel: 0.1,
    bass: { pattern: 'quarters', level: 0.32 },
    arp: { pattern: 'offbeats', level: 0.26, octave: 12, decay: 0.09 },
    kick: { pattern: 'quarters', level: 0.22 },
    hat: { pattern: 'eighths', level: 0.04 },
  }),
  inspiring: recipe({
    bpm: 92,
    barsPerChord: 2,
    chords: C_G_AM_F(),
    padLevel: 0.4,
    bass: { pattern: 'eighths', level: 0.22 },
    arp: { pattern: 'sixteenths', level: 0.1, octave: 12, decay: 0.14 },
    kick: { pattern: 'quarters', level: 0.16 },
  }),
};

const midiToHz = (note: number) => 440 * 2 ** ((note - 69) / 12);

/** Beat positions (in beats from the bar's start) a pattern plays on, in 4/4. */
function hits(pattern: Pattern): number[] {
  switch (pattern) {
    case 'quarters':
      return [0, 1, 2, 3];
    case 'eighths':
      return [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5];
    case 'offbeats':
      return [0.5, 1.5, 2.5, 3.5];
    case 'sixteenths':
      return Array.from({ length: 16 }, (_, i) => i / 4);
    case 'none':
      return [];
  }
}

/** A stereo loop whose notes wrap around its end, so it repeats without a seam. */
class Loop {
  readonly left: Float32Array;
  readonly right: Float32Array;
  constructor(readonly frames: number) {
    this.left = new Float32Array(frames);
    this.right = new Float32Array(frames);
  }

  /**
   * A tone of summed partials (frequency multiples with their levels) starting at `start` seconds,
   * shaped by `envelope(t)`; `pan` from -1 (left) to 1 (right). Sine recurrences keep this cheap.
   */
  tone(
    start: number,
    seconds: number,
    hz: number,
    partials: ReadonlyArray<readonly [number, number]>,
    envelope: (t: number) => number,
    pan = 0,
  ) {
    const first = Math.round(start * MUSIC_SAMPLE_RATE);
    const count = Math.min(this.frames, Math.round(seconds * MUSIC_SAMPLE_RATE));
    const leftGain = Math.cos(((pan + 1) * Math.PI) / 4);
    const rightGain = Math.sin(((pan + 1) * Math.PI) / 4);
    const oscillators = partials
      .filter(([multiple]) => hz * multiple < MUSIC_SAMPLE_RATE / 2.2)
      .map(([multiple, level]) => {
        const step = (2 * Math.PI * hz * multiple) / MUSIC_SAMPLE_RATE;
        return { level, coefficient: 2 * Math.cos(step), previous: Math.sin(-step), current: 0 };
      });
    // Every tone ends with a 5 ms fade, so a note cut before its envelope dies never clicks.
    const fadeFrames = 0.005 * MUSIC_SAMPLE_RATE;
    for (let i = 0; i < count; i++) {
      let sample = 0;
      for (const oscillator of oscillators) {
        sample += oscillator.current * oscillator.level;
        const next = oscillator.coefficient * oscillator.current - oscillator.previous;
        oscillator.previous = oscillator.current;
        oscillator.current = next;
      }
      const value = sample * envelope(i / MUSIC_SAMPLE_RATE) * Math.min(1, (count - i) / fadeFrames);
      const at = (first + i) % this.frames;
      this.left[at]! += value * leftGain;
      this.right[at]! += value * rightGain;
    }
  }

  /** Seeded noise through a one-pole high-pass: a soft hi-hat. */
  noise(start: number, seconds: number, level: number, decay: number, random: Random) {
    const first = Math.round(start * MUSIC_SAMPLE_RATE);
    const count = Math.round(seconds * MUSIC_SAMPLE_RATE);
    let previousIn = 0;
    let previousOut = 0;
    for (let i = 0; i < count; i++) {
      const input = random.range(-1, 1);
      previousOut = 0.6 * (previousOut + input - previousIn);
      previousIn = input;
      const value = previousOut * level * Math.exp(-(i / MUSIC_SAMPLE_RATE) / decay);
      const at = (first + i) % this.frames;
      this.left[at]! += value * 0.8;
      this.right[at]! += value;
    }
  }

  /** Every mood to the same loudness (RMS), as long as its peak stays under `peak`. */
  normalise(rms: number, peak: number) {
    let max = 0;
    let sum = 0;
    for (let i = 0; i < this.frames; i++) {
      max = Math.max(max, Math.abs(this.left[i]!), Math.abs(this.right[i]!));
      sum += this.left[i]! ** 2 + this.right[i]! ** 2;
    }
    if (max === 0) return;
    const gain = Math.min(rms / Math.sqrt(sum / (2 * this.frames)), peak / max);
    for (let i = 0; i < this.frames; i++) {
      this.left[i]! *= gain;
      this.right[i]! *= gain;
    }
  }
}

const pluck = (decay: number) => (t: number) => Math.min(1, t / 0.004) * Math.exp(-t / decay);

/** The mood's loop as stereo samples at MUSIC_SAMPLE_RATE. */
export function synthesiseMusicLoop(mood: MusicMood): Loop {
  const recipe = RECIPES[mood];
  const beat = 60 / recipe.bpm;
  const bar = 4 * beat;
  const chordSeconds = recipe.barsPerChord * bar;
  const loop = new Loop(Math.round(recipe.chords.length * chordSeconds * MUSIC_SAMPLE_RATE));
  const random = createRandom(seedFromText(`music:${mood}`));

  recipe.chords.forEach((chord, chordIndex) => {
    const chordStart = chordIndex * chordSeconds;
    // Pad: every chord note, slightly detuned left and right, swelling in and crossfading into the next chord.
    const padSeconds = chordSeconds + 1.2;
    const swell = (t: number) =>
      Math.min(1, t / 0.7) * Math.min(1, Math.max(0, (padSeconds - t) / 1.2)) * (0.85 + 0.15 * Math.sin(2 * Math.PI * 0.25 * t));
    for (const note of chord) {
      const hz = midiToHz(note);
      const partials = [
        [1, 1],
        [2, 0.3],
        [3, 0.12],
        [4, 0.05],
      ] as const;
      loop.tone(chordStart, padSeconds, hz * 0.9985, partials, (t) => (swell(t) * recipe.padLevel) / chord.length, -0.45);
      loop.tone(chordStart, padSeconds, hz * 1.0015, partials, (t) => (swell(t) * recipe.padLevel) / chord.length, 0.45);
    }
    for (let barIndex = 0; barIndex < recipe.barsPerChord; barIndex++) {
      const barStart = chordStart + barIndex * bar;
      const root = midiToHz(chord[0]! - 12);
      for (const position of hits(recipe.bass.pattern)) {
        loop.tone(
          barStart + position * beat,
          beat * 0.95,
          root / 2,
          [
            [1, 1],
            [2, 0.35],
          ],
          (t) => Math.min(1, t / 0.01) * Math.exp(-t / 0.35) * recipe.bass.level,
        );
      }
      hits(recipe.arp.pattern).forEach((position, step) => {
        const note = chord[step % chord.length]! + recipe.arp.octave;
        loop.tone(
          barStart + position * beat,
          recipe.arp.decay * 5,
          midiToHz(note),
          [
            [1, 1],
            [3, 0.1],
            [5, 0.03],
          ],
          (t) => pluck(recipe.arp.decay)(t) * recipe.arp.level,
          step % 2 === 0 ? -0.3 : 0.3,
        );
      });
      for (const position of hits(recipe.kick.pattern)) {
        // A short low thump: carries the pulse without a drum sample.
        const start = barStart + position * beat;
        loop.tone(
          start,
          0.25,
          55,
          [
            [1, 1],
            [2, 0.5],
          ],
          (t) => Math.exp(-t / 0.07) * recipe.kick.level,
        );
      }
      for (const position of hits(recipe.hat.pattern)) loop.noise(barStart + position * beat, 0.08, recipe.hat.level, 0.02, random);
      if (recipe.timpani > 0) {
        for (const position of [0, 2])
          loop.tone(
            barStart + position * beat,
            1.6,
            root / 2,
            [
              [1, 1],
              [1.5, 0.3],
              [2, 0.2],
            ],
            (t) => Math.min(1, t / 0.005) * Math.exp(-t / 0.45) * recipe.timpani,
          );
      }
      if (recipe.bells > 0 && barIndex === 0) {
        const note = chord[random.int(0, chord.length - 1)]! + 24;
        loop.tone(
          barStart + beat * random.int(1, 3),
          3,
          midiToHz(note),
          [
            [1, 1],
            [2.76, 0.3],
            [5.4, 0.1],
          ],
          (t) => Math.min(1, t / 0.003) * Math.exp(-t / 0.9) * recipe.bells,
          random.range(-0.6, 0.6),
        );
      }
    }
  });
  loop.normalise(RMS, PEAK);
  return loop;
}

/** A loop as a 16-bit stereo WAV file. */
export const encodeLoop = (loop: { left: Float32Array; right: Float32Array; frames: number }): Buffer =>
  encodeWav(pcm16FromFloat([loop.left, loop.right], loop.frames), MUSIC_SAMPLE_RATE, 2);

/** A process synthesises each mood once (a few MB each); every later job only writes the file. */
const encodedBeds = new Map<MusicMood, Buffer>();

/** Bump when the synthesis changes the bytes in a way the recipes do not show. */
const BED_FORMAT = 'bed-v1';

/**
 * Where a mood's loop is kept for every process on the machine (synthesising one takes about a
 * second of CPU, which each CLI run and each worker process paid again), named by its recipe.
 */
function sharedBedPath(mood: MusicMood): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ format: BED_FORMAT, rate: MUSIC_SAMPLE_RATE, rms: RMS, peak: PEAK, recipe: RECIPES[mood] }))
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), 'reelsmith-music', `${mood}-${key}.wav`);
}

async function readShared(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/** Written whole or not at all (a temporary file renamed into place); a folder that cannot be written only costs the next process a synthesis. */
async function writeWhole(path: string, bytes: Buffer): Promise<boolean> {
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(partial, bytes);
    await rename(partial, path);
    return true;
  } catch {
    await rm(partial, { force: true });
    return false;
  }
}

/**
 * The mood's loop at `path`, written once (atomically, so a crash never leaves half a file that a
 * resumed job would mix in).
 */
export async function writeMusicBed(mood: MusicMood, path: string): Promise<string> {
  if (existsSync(path)) return path;
  await mkdir(dirname(path), { recursive: true });
  let wav = encodedBeds.get(mood);
  if (!wav) {
    const shared = sharedBedPath(mood);
    wav = (await readShared(shared)) ?? encodeLoop(synthesiseMusicLoop(mood));
    encodedBeds.set(mood, wav);
    if (!existsSync(shared)) await writeWhole(shared, wav);
  }
  if (!(await writeWhole(path, wav))) throw new Error(`Cannot write the music bed to ${path}`);
  return path;
}
