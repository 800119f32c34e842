// Runs espeak-ng (compiled to JavaScript/WebAssembly) off the main thread: one synthesis of a
// 90 s narration takes seconds of CPU, which would otherwise freeze the server's event loop.
// Plain JavaScript on purpose, so it starts the same under tsx, vitest and plain node.
import { parentPort } from 'node:worker_threads';
import createEspeakModule from '@echogarden/espeak-ng-emscripten';

const espeakModule = await createEspeakModule();
const engine = new espeakModule.eSpeakNGWorker();

parentPort.on('message', (message) => {
  const { requestId, voice, rate, pitch, range, text } = message;
  try {
    const status = engine.set_voice(voice, '');
    if (status !== 0) throw new Error(`espeak-ng rejected voice "${voice}" (status ${status})`);
    engine.set_rate(rate);
    engine.set_pitch(pitch);
    engine.set_range(range);
    const chunks = [];
    const events = [];
    let sampleCount = 0;
    engine.synthesize(text, (samples, chunkEvents) => {
      if (samples && samples.length > 0) {
        chunks.push(samples);
        sampleCount += samples.length;
      }
      for (const event of chunkEvents) {
        if (event.type === 'word' || event.type === 'end' || event.type === 'sentence') {
          events.push({ type: event.type, textPosition: event.text_position, length: event.word_length, audioMs: event.audio_position });
        }
      }
      return 0; // 0 = keep going
    });
    const samples = new Int16Array(sampleCount);
    let offset = 0;
    for (const chunk of chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    parentPort.postMessage({ requestId, ok: true, samples, sampleRate: engine.get_samplerate(), events }, [samples.buffer]);
  } catch (error) {
    parentPort.postMessage({ requestId, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

parentPort.postMessage({ ready: true });
