// Runs the natural voice (Kokoro-82M through onnxruntime-node) and its phonemiser (espeak-ng's
// IPA, as Kokoro's own pipeline uses for these languages) off the main thread: one scene takes
// seconds of CPU, which would otherwise freeze the server's event loop and the other jobs' steps.
// Plain JavaScript on purpose, so it starts the same under tsx, vitest and plain node.
import { parentPort, workerData } from 'node:worker_threads';
import createEspeakModule from '@echogarden/espeak-ng-emscripten';
import ort from 'onnxruntime-node';

const { modelPath, threads } = workerData;

let espeak;
async function phonemizer() {
  if (!espeak) {
    const module = await createEspeakModule();
    espeak = { module, engine: new module.eSpeakNGWorker(), voice: '' };
  }
  return espeak;
}

function readCString(module, pointer) {
  const heap = module.HEAPU8;
  let end = pointer;
  while (heap[end] !== 0) end += 1;
  return Buffer.from(heap.subarray(pointer, end)).toString('utf8');
}

// Intra-op threads: scenes are queued to this one session, which spreads each call over the cores.
const sessionReady = ort.InferenceSession.create(modelPath, {
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
});

async function handle(message) {
  if (message.type === 'describe') {
    const session = await sessionReady;
    return { inputNames: session.inputNames, outputNames: session.outputNames };
  }
  if (message.type === 'phonemize') {
    const { module, engine } = await phonemizer();
    if (espeak.voice !== message.voice) {
      const status = engine.set_voice(message.voice, '');
      if (status !== 0) throw new Error(`espeak-ng rejected voice "${message.voice}" (status ${status})`);
      espeak.voice = message.voice;
    }
    // Word by word, so each caption word knows its own phonemes (and so its own stretch of audio).
    return {
      phonemes: message.words.map((word) => (word ? readCString(module, module.getPointer(engine.convert_to_phonemes(word, true))) : '')),
    };
  }
  if (message.type === 'run') {
    const session = await sessionReady;
    const ids = BigInt64Array.from(message.ids, (id) => BigInt(id));
    const feeds = {
      input_ids: new ort.Tensor('int64', ids, [1, ids.length]),
      style: new ort.Tensor('float32', message.style, [1, message.style.length]),
      speed: new ort.Tensor('float32', Float32Array.from([message.speed]), [1]),
    };
    const outputs = await session.run(feeds);
    const waveform = Float32Array.from(outputs.waveform.data);
    const durationsTensor = outputs.durations ?? outputs.pred_dur;
    const durations = durationsTensor ? Float32Array.from(durationsTensor.data, Number) : null;
    return { waveform, durations, transfer: [waveform.buffer, ...(durations ? [durations.buffer] : [])] };
  }
  throw new Error(`Unknown request ${message.type}`);
}

parentPort.on('message', (message) => {
  handle(message).then(
    ({ transfer, ...reply }) => parentPort.postMessage({ requestId: message.requestId, ok: true, ...reply }, transfer ?? []),
    (error) =>
      parentPort.postMessage({ requestId: message.requestId, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});

sessionReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) }),
);
