/** 16-bit PCM as a WAV file: `samples` interleaved when there is more than one channel. */
export function encodeWav(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const dataBytes = samples.length * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  // Copied out so a view into a larger buffer, or a platform of the other byte order, writes only its samples little-endian.
  const body = Buffer.alloc(dataBytes);
  for (let i = 0; i < samples.length; i++) body.writeInt16LE(samples[i]!, i * 2);
  return Buffer.concat([header, body]);
}

/** Float channels (-1..1) as interleaved 16-bit samples, clipped at full scale. */
export function pcm16FromFloat(channels: readonly Float32Array[], frames: number): Int16Array {
  const out = new Int16Array(frames * channels.length);
  for (let frame = 0; frame < frames; frame++) {
    channels.forEach((channel, index) => {
      out[frame * channels.length + index] = Math.max(-32768, Math.min(32767, Math.round(channel[frame]! * 32767)));
    });
  }
  return out;
}

export interface DecodedWav {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

/** A 16-bit PCM WAV file's samples; the chunks other than `fmt ` and `data` (LIST, fact…) are skipped. */
export function decodeWav(file: Buffer): DecodedWav {
  if (file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') throw new Error('Not a WAV file');
  let offset = 12;
  let format: { sampleRate: number; channels: number; bits: number; encoding: number } | null = null;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        encoding: file.readUInt16LE(body),
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bits: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format || format.encoding !== 1 || format.bits !== 16) throw new Error('Only 16-bit PCM WAV files can be read');
      // ffmpeg writes a streamed WAV's data size as 0xFFFFFFFF or 0 when it cannot seek back; the rest of the file is the data then.
      const end = size === 0 || size === 0xffffffff ? file.length : Math.min(file.length, body + size);
      const count = Math.floor((end - body) / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = file.readInt16LE(body + i * 2);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('The WAV file has no audio data');
}
