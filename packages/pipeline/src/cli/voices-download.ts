/**
 * `npm run voices:download`: fetches the natural voices' model (Kokoro-82M, 326 MB) once from
 * VOICE_MODEL_URL into DATA_DIR/models, verifying every file against its pinned size and SHA-256;
 * an interrupted download resumes where it stopped. Nothing is ever fetched at install.
 */
import { loadPipelineConfig } from '../pipeline-config.js';
import { getNeuralVoiceModel } from '../voice/neural-voice-model.js';

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

async function main(): Promise<number> {
  const config = loadPipelineConfig(process.env).voice.neural;
  if (!config) throw new Error('No natural voice configured');
  if (!config.modelUrl) {
    console.error('VOICE_MODEL_URL is off: nothing to download from.');
    return 1;
  }
  const model = getNeuralVoiceModel({
    modelsDir: config.modelsDir,
    modelUrl: config.modelUrl,
    ...(config.manifestPath ? { manifestPath: config.manifestPath } : {}),
  });
  if (await model.isReady()) {
    console.log(`The natural voices are ready in ${model.dir}.`);
    return 0;
  }
  console.log(`Downloading the natural voices from ${config.modelUrl} into ${model.dir}`);
  let lastShown = -1;
  model.onEvent((event) => {
    if (event.type !== 'progress' || event.status.progress === lastShown) return;
    lastShown = event.status.progress;
    console.log(`  ${event.status.progress}% (${megabytes(event.status.bytesDone)} of ${megabytes(event.status.bytesTotal)} MB)`);
  });
  const ready = await model.download();
  if (!ready) {
    console.error(`The natural voices could not be downloaded: ${model.status().error ?? 'unknown error'}. Run this again to resume.`);
    return 1;
  }
  console.log(`The natural voices are ready in ${model.dir} (every file checked against its SHA-256).`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
