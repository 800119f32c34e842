import { createHash } from 'node:crypto';

/**
 * A tiny stand-in for Kokoro-82M that the tests make: an ONNX graph with the real model's contract
 * (`input_ids` int64 [1, n], `style` float32 [1, 256], `speed` float32 [1] → `waveform` float32
 * [samples], and optionally `durations` float32 [n] as the timestamped export adds), speaking a
 * sine tone of SAMPLES_PER_TOKEN / speed samples per token. With it, its `config.json`,
 * `tokenizer.json` and voice files, the real loading, checksum, resume and inference code runs here,
 * where the real 326 MB weights cannot be fetched.
 *
 * The protobuf is written by hand (a few dozen bytes of onnx.proto's ModelProto): no dependency for
 * one test fixture.
 */

/** 600 samples = one Kokoro duration frame (25 ms at 24 kHz); two frames per token. */
export const TINY_SAMPLES_PER_TOKEN = 1200;
const SAMPLE_RATE = 24_000;
const TONE_HZ = 220;

// ---------- a minimal protobuf writer ----------
function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number((v & 0x7fn) | 0x80n));
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const vint = (field: number, value: number | bigint) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, data: Uint8Array | number[]) => [...key(field, 2), ...varint(data.length), ...data];
const str = (field: number, text: string) => bytes(field, [...Buffer.from(text, 'utf8')]);
const f32 = (field: number, value: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return [...key(field, 5), ...b];
};

const FLOAT = 1;
const INT64 = 7;

type Attribute = { name: string; int?: number; float?: number };
function attribute({ name, int, float }: Attribute): number[] {
  // AttributeProto: name 1, f 2, i 3, type 20 (FLOAT = 1, INT = 2).
  if (int !== undefined) return [...str(1, name), ...vint(3, int), ...vint(20, 2)];
  return [...str(1, name), ...f32(2, float ?? 0), ...vint(20, 1)];
}

function node(op: string, inputs: string[], outputs: string[], attributes: Attribute[] = []): number[] {
  // NodeProto: input 1, output 2, name 3, op_type 4, attribute 5.
  return [
    ...inputs.flatMap((name) => str(1, name)),
    ...outputs.flatMap((name) => str(2, name)),
    ...str(3, `${op}_${outputs[0]}`),
    ...str(4, op),
    ...attributes.flatMap((a) => bytes(5, attribute(a))),
  ];
}

function tensor(name: string, type: number, dims: number[], values: number[]): number[] {
  // TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian).
  const raw = Buffer.alloc(values.length * (type === INT64 ? 8 : 4));
  values.forEach((v, i) => (type === INT64 ? raw.writeBigInt64LE(BigInt(v), i * 8) : raw.writeFloatLE(v, i * 4)));
  return [...dims.flatMap((d) => vint(1, d)), ...vint(2, type), ...str(8, name), ...bytes(9, raw)];
}

function valueInfo(name: string, type: number, dims: (number | string)[]): number[] {
  // ValueInfoProto { name 1, type 2: TypeProto { tensor_type 1: { elem_type 1, shape 2: { dim 1: { dim_value 1 | dim_param 2 } } } } }
  const shape = dims.flatMap((d) => bytes(1, typeof d === 'number' ? vint(1, d) : str(2, d)));
  return [...str(1, name), ...bytes(2, bytes(1, [...vint(1, type), ...bytes(2, shape)]))];
}

/** The tiny model's ONNX bytes. `durations` adds the per-token frame durations the timestamped export gives. */
export function tinyKokoroOnnx(options: { durations?: boolean } = {}): Buffer {
  const omega = (2 * Math.PI * TONE_HZ) / SAMPLE_RATE;
  const nodes = [
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'one_i'], ['n_tokens']),
    node('Cast', ['n_tokens'], ['n_tokens_f'], [{ name: 'to', int: FLOAT }]),
    node('Mul', ['n_tokens_f', 'per_token'], ['samples_at_1']),
    node('Div', ['samples_at_1', 'speed'], ['samples_f']),
    node('Floor', ['samples_f'], ['samples_floor']),
    node('Reshape', ['samples_floor', 'scalar_shape'], ['samples_scalar']),
    node('Range', ['zero_f', 'samples_scalar', 'one_f'], ['t']),
    node('Mul', ['t', 'omega'], ['phase']),
    node('Sin', ['phase'], ['tone']),
    node('Mul', ['tone', 'amplitude'], ['waveform']),
  ];
  if (options.durations) {
    nodes.push(
      node('Div', ['frames_per_token', 'speed'], ['frames_each']),
      node('Slice', ['ids_shape', 'one_1d', 'two_1d'], ['n_1d']),
      node('Expand', ['frames_each', 'n_1d'], ['durations']),
    );
  }
  const initializers = [
    tensor('one_i', INT64, [], [1]),
    tensor('per_token', FLOAT, [], [TINY_SAMPLES_PER_TOKEN]),
    tensor('scalar_shape', INT64, [0], []),
    tensor('zero_f', FLOAT, [], [0]),
    tensor('one_f', FLOAT, [], [1]),
    tensor('omega', FLOAT, [], [omega]),
    tensor('amplitude', FLOAT, [], [0.3]),
    ...(options.durations
      ? [
          tensor('frames_per_token', FLOAT, [1], [TINY_SAMPLES_PER_TOKEN / 600]),
          tensor('one_1d', INT64, [1], [1]),
          tensor('two_1d', INT64, [1], [2]),
        ]
      : []),
  ];
  // GraphProto: node 1, name 2, initializer 5, input 11, output 12.
  const graph = [
    ...nodes.flatMap((n) => bytes(1, n)),
    ...str(2, 'tiny-kokoro'),
    ...initializers.flatMap((t) => bytes(5, t)),
    ...bytes(11, valueInfo('input_ids', INT64, [1, 'sequence_length'])),
    ...bytes(11, valueInfo('style', FLOAT, [1, 256])),
    ...bytes(11, valueInfo('speed', FLOAT, [1])),
    ...bytes(12, valueInfo('waveform', FLOAT, ['num_samples'])),
    ...(options.durations ? bytes(12, valueInfo('durations', FLOAT, ['sequence_length'])) : []),
  ];
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 ({ domain 1, version 2 }).
  return Buffer.from([...vint(1, 8), ...str(2, 'reelsmith-tests'), ...bytes(7, graph), ...bytes(8, [...str(1, ''), ...vint(2, 13)])]);
}

/**
 * Kokoro v1.0's phoneme vocabulary (hexgrad/Kokoro-82M config.json), as its tokenizer.json maps it:
 * `$` (0) pads both ends.
 */
export const KOKORO_VOCAB: Readonly<Record<string, number>> = {
  $: 0,
  ';': 1,
  ':': 2,
  ',': 3,
  '.': 4,
  '!': 5,
  '?': 6,
  '—': 9,
  '…': 10,
  '"': 11,
  '(': 12,
  ')': 13,
  '“': 14,
  '”': 15,
  ' ': 16,
  '\u0303': 17,
  ʣ: 18,
  ʥ: 19,
  ʦ: 20,
  ʨ: 21,
  ᵝ: 22,
  '\uAB67': 23,
  A: 24,
  I: 25,
  O: 31,
  Q: 33,
  S: 35,
  T: 36,
  W: 39,
  Y: 41,
  ᵊ: 42,
  a: 43,
  b: 44,
  c: 45,
  d: 46,
  e: 47,
  f: 48,
  h: 50,
  i: 51,
  j: 52,
  k: 53,
  l: 54,
  m: 55,
  n: 56,
  o: 57,
  p: 58,
  q: 59,
  r: 60,
  s: 61,
  t: 62,
  u: 63,
  v: 64,
  w: 65,
  x: 66,
  y: 67,
  z: 68,
  ɑ: 69,
  ɐ: 70,
  ɒ: 71,
  æ: 72,
  β: 75,
  ɔ: 76,
  ɕ: 77,
  ç: 78,
  ɖ: 80,
  ð: 81,
  ʤ: 82,
  ə: 83,
  ɚ: 85,
  ɛ: 86,
  ɜ: 87,
  ɟ: 90,
  ɡ: 92,
  ɥ: 99,
  ɨ: 101,
  ɪ: 102,
  ʝ: 103,
  ɯ: 110,
  ɰ: 111,
  ŋ: 112,
  ɳ: 113,
  ɲ: 114,
  ɴ: 115,
  ø: 116,
  ɸ: 118,
  θ: 119,
  œ: 120,
  ɹ: 123,
  ɾ: 125,
  ɻ: 126,
  ʁ: 128,
  ɽ: 129,
  ʂ: 130,
  ʃ: 131,
  ʈ: 132,
  ʧ: 133,
  ʊ: 135,
  ʋ: 136,
  ʌ: 138,
  ɣ: 139,
  ɤ: 140,
  χ: 142,
  ʎ: 143,
  ʒ: 147,
  ʔ: 148,
  ˈ: 156,
  ˌ: 157,
  ː: 158,
  ʰ: 162,
  ʲ: 164,
  '↓': 169,
  '→': 171,
  '↗': 172,
  '↘': 173,
  ᵻ: 177,
};

/** tokenizer.json laid out as the onnx-community repository's (a character-level WordLevel model). */
export function tinyKokoroTokenizerJson(): string {
  return JSON.stringify({
    version: '1.0',
    pre_tokenizer: { type: 'Split', pattern: { Regex: '' }, behavior: 'Isolated', invert: false },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '$', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '$', type_id: 0 } }],
    },
    model: { vocab: KOKORO_VOCAB },
  });
}

export function tinyKokoroConfigJson(): string {
  const { $: _pad, ...vocab } = KOKORO_VOCAB;
  return JSON.stringify({ model_type: 'style_text_to_speech_2', vocab });
}

/**
 * A voice pack shaped as Kokoro's (510 rows × 1 × 256 float32): row r holds r + seed / 1000 in
 * every cell, so a test can tell which row the style came from.
 */
export function tinyKokoroVoice(seed: number, rows = 510): Buffer {
  const data = new Float32Array(rows * 256);
  for (let r = 0; r < rows; r += 1) data.fill(r + seed / 1000, r * 256, (r + 1) * 256);
  return Buffer.from(data.buffer);
}

export interface TinyModelFile {
  path: string;
  body: Buffer;
}

/** Every file of the tiny model, under the paths the real repository uses. */
export function tinyKokoroFiles(options: { durations?: boolean; voices?: readonly string[]; modelPath?: string } = {}): TinyModelFile[] {
  const voices = options.voices ?? ['af_heart', 'am_michael', 'bf_emma', 'bm_george'];
  return [
    { path: options.modelPath ?? 'onnx/model.onnx', body: tinyKokoroOnnx(options) },
    { path: 'config.json', body: Buffer.from(tinyKokoroConfigJson()) },
    { path: 'tokenizer.json', body: Buffer.from(tinyKokoroTokenizerJson()) },
    ...voices.map((voice, i) => ({ path: `voices/${voice}.bin`, body: tinyKokoroVoice(i + 1) })),
  ];
}

/** The manifest (paths, sizes, SHA-256 sums) that pins a set of files, as VOICE_MODEL_MANIFEST reads it. */
export function manifestFor(files: readonly TinyModelFile[], model = 'onnx/model.onnx') {
  return {
    model,
    files: files.map((file) => ({ path: file.path, size: file.body.length, sha256: createHash('sha256').update(file.body).digest('hex') })),
  };
}
