/**
 * Loudness of mono PCM in this process: the ITU-R BS.1770-4 / EBU R128 integrated loudness (the
 * meter ffmpeg's `ebur128` filter implements) and a look-ahead peak limiter. The narration's scenes
 * are brought to one loudness here rather than in ffmpeg: each ffmpeg pass was a process start (and
 * a fork of this large process) per scene and per correction, up to twenty for a 30 s video, for
 * work that takes a few milliseconds on the samples themselves.
 */

/** Loudness (LUFS) and highest sample (dBFS) of a signal; null loudness for silence. */
export interface SampleLoudness {
  integratedLufs: number | null;
  samplePeakDb: number | null;
}

type Biquad = { b: [number, number, number]; a: [number, number] };

/**
 * The K-weighting pre-filter (a high shelf, then the RLB high-pass) for a sample rate, from the
 * analogue prototypes of BS.1770 (at 48 kHz these give the standard's published coefficients).
 */
function kWeighting(sampleRate: number): [Biquad, Biquad] {
  const shelfK = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  const shelfQ = 0.7071752369554196;
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  const shelfA0 = 1 + shelfK / shelfQ + shelfK * shelfK;
  const shelf: Biquad = {
    b: [
      (vh + (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
      (2 * (shelfK * shelfK - vh)) / shelfA0,
      (vh - (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    ],
    a: [(2 * (shelfK * shelfK - 1)) / shelfA0, (1 - shelfK / shelfQ + shelfK * shelfK) / shelfA0],
  };
  const passK = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  const passQ = 0.5003270373238773;
  const passA0 = 1 + passK / passQ + passK * passK;
  const highPass: Biquad = {
    b: [1, -2, 1],
    a: [(2 * (passK * passK - 1)) / passA0, (1 - passK / passQ + passK * passK) / passA0],
  };
  return [shelf, highPass];
}

function filtered(input: Float64Array, { b, a }: Biquad): Float64Array {
  const output = new Float64Array(input.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let n = 0; n < input.length; n++) {
    const x = input[n]!;
    const y = b[0] * x + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    output[n] = y;
  }
  return output;
}

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const lufsOf = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

/** Integrated loudness and sample peak of mono samples in [-1, 1] (400 ms blocks every 100 ms, both gates). */
export function measureSampleLoudness(samples: Float64Array, sampleRate: number): SampleLoudness {
  let peak = 0;
  for (let n = 0; n < samples.length; n++) peak = Math.max(peak, Math.abs(samples[n]!));
  const [shelf, highPass] = kWeighting(sampleRate);
  const weighted = filtered(filtered(samples, shelf), highPass);
  // Mean square per 100 ms step, then per 400 ms block (four steps).
  const step = Math.round(sampleRate / 10);
  const steps: number[] = [];
  for (let start = 0; start + step <= weighted.length; start += step) {
    let sum = 0;
    for (let n = start; n < start + step; n++) sum += weighted[n]! * weighted[n]!;
    steps.push(sum / step);
  }
  const blocks: number[] = [];
  for (let index = 0; index + 4 <= steps.length; index++)
    blocks.push((steps[index]! + steps[index + 1]! + steps[index + 2]! + steps[index + 3]!) / 4);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const aboveAbsolute = blocks.filter((block) => block > 0 && lufsOf(block) > ABSOLUTE_GATE_LUFS);
  const samplePeakDb = peak > 0 ? 20 * Math.log10(peak) : null;
  if (aboveAbsolute.length === 0) return { integratedLufs: null, samplePeakDb };
  const relativeGate = lufsOf(mean(aboveAbsolute)) + RELATIVE_GATE_LU;
  const gated = aboveAbsolute.filter((block) => lufsOf(block) > relativeGate);
  return { integratedLufs: lufsOf(mean(gated)), samplePeakDb };
}

/**
 * A look-ahead peak limiter: no sample leaves above `ceiling`. The gain each sample needs is held
 * over the look-ahead and averaged across it, so the gain is already down when a peak arrives and
 * falls smoothly (a ramp as long as the look-ahead, like ffmpeg's alimiter attack); it then comes
 * back with the release time constant, never above what the samples ahead allow.
 */
export function limitPeaks(samples: Float64Array, sampleRate: number, ceiling: number, attackMs = 5, releaseMs = 50): Float64Array {
  const lookAhead = Math.max(1, Math.round((attackMs / 1000) * sampleRate));
  const length = samples.length;
  const needed = new Float64Array(length);
  for (let n = 0; n < length; n++) {
    const level = Math.abs(samples[n]!);
    needed[n] = level > ceiling ? ceiling / level : 1;
  }
  // held[n]: the least gain needed in [n, n + lookAhead] (a sliding minimum, monotonic deque).
  const held = new Float64Array(length);
  const deque = new Int32Array(length);
  let head = 0;
  let tail = 0;
  let next = 0;
  for (let n = 0; n < length; n++) {
    const end = Math.min(length - 1, n + lookAhead);
    for (; next <= end; next++) {
      while (tail > head && needed[deque[tail - 1]!]! >= needed[next]!) tail--;
      deque[tail++] = next;
    }
    while (deque[head]! < n) head++;
    held[n] = needed[deque[head]!]!;
  }
  // Averaged over the look-ahead behind each sample: every term is at most what this sample needs
  // (each held window reaches it), so the mean is too.
  const release = 1 - Math.exp(-1 / ((releaseMs / 1000) * sampleRate));
  const output = new Float64Array(length);
  let windowSum = lookAhead + 1;
  let gain = 1;
  for (let n = 0; n < length; n++) {
    windowSum += held[n]! - (n - lookAhead - 1 >= 0 ? held[n - lookAhead - 1]! : 1);
    const target = windowSum / (lookAhead + 1);
    gain = target < gain ? target : gain + (target - gain) * release;
    output[n] = samples[n]! * gain;
  }
  return output;
}

export function samplesFromPcm16(pcm: Int16Array): Float64Array {
  const samples = new Float64Array(pcm.length);
  for (let n = 0; n < pcm.length; n++) samples[n] = pcm[n]! / 32768;
  return samples;
}

export function pcm16FromSamples(samples: Float64Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let n = 0; n < samples.length; n++) pcm[n] = Math.max(-32768, Math.min(32767, Math.round(samples[n]! * 32768)));
  return pcm;
}
