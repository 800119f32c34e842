import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWav, pcm16FromFloat } from './wav.js';

describe('WAV files', () => {
  it('reads back what it writes, mono and interleaved stereo', () => {
    const mono = Int16Array.from([0, 1, -1, 32767, -32768]);
    expect(decodeWav(encodeWav(mono, 48000))).toEqual({ sampleRate: 48000, channels: 1, samples: mono });
    const stereo = pcm16FromFloat([Float32Array.from([0, 0.5, 2]), Float32Array.from([-0.5, -2, 0])], 3);
    expect(Array.from(stereo)).toEqual([0, -16383, 16384, -32768, 32767, 0]);
    const wav = encodeWav(stereo, 44100, 2);
    expect(wav.readUInt32LE(28)).toBe(44100 * 4);
    expect(decodeWav(wav)).toEqual({ sampleRate: 44100, channels: 2, samples: stereo });
  });

  it('skips chunks before the audio and refuses what is not 16-bit PCM', () => {
    const plain = encodeWav(Int16Array.from([5, 6]), 8000);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]);
    const withList = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
    expect(Array.from(decodeWav(withList).samples)).toEqual([5, 6]);
    const float = Buffer.from(plain);
    float.writeUInt16LE(3, 20);
    expect(() => decodeWav(float)).toThrow(/16-bit PCM/);
    expect(() => decodeWav(Buffer.from('not a wav file at all, really'))).toThrow(/Not a WAV/);
  });
});
