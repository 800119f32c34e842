import path from 'node:path';
import { KokoroEngine } from './kokoro-engine.js';
import { downloadModel, isModelReady, loadModelManifest, type ModelStatus } from './kokoro-model-store.js';
import type { ModelManifest } from './kokoro-voices.js';

export interface NeuralModelOptions {
  /** DATA_DIR/models: the model goes in its kokoro-82m folder. */
  modelsDir: string;
  /** VOICE_MODEL_URL; null when set to `off` (a model already on disk is still used). */
  modelUrl: string | null;
  /** VOICE_MODEL_MANIFEST: a JSON file pinning other files and sums (the tests' tiny model). */
  manifestPath?: string;
}

export type NeuralModelEvent = { type: 'progress'; status: ModelStatus } | { type: 'ready' } | { type: 'failed'; error: string };

/**
 * The natural voice's model as the process knows it: absent, downloading (with its progress),
 * ready or failed (with why). One per models folder and process, shared by every registry, so the
 * admin page, the studio and the jobs see one download.
 */
export class NeuralVoiceModel {
  readonly dir: string;
  private current: ModelStatus = { state: 'absent', progress: 0, bytesDone: 0, bytesTotal: 0 };
  private manifestPromise: Promise<ModelManifest> | undefined;
  private checked: Promise<boolean> | undefined;
  private downloading: Promise<boolean> | undefined;
  private engineInstance: KokoroEngine | undefined;
  private readonly listeners = new Set<(event: NeuralModelEvent) => void>();

  constructor(readonly options: NeuralModelOptions) {
    this.dir = path.join(options.modelsDir, 'kokoro-82m');
  }

  manifest(): Promise<ModelManifest> {
    this.manifestPromise ??= loadModelManifest(this.options.manifestPath);
    return this.manifestPromise;
  }

  /** The last known state; `refresh()` first checks the disk. */
  status(): ModelStatus {
    return { ...this.current };
  }

  onEvent(listener: (event: NeuralModelEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: NeuralModelEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Whether the model is on disk and verified (checked once; a download in progress says no). */
  async isReady(): Promise<boolean> {
    if (this.current.state === 'ready') return true;
    if (this.current.state === 'downloading') return false;
    this.checked ??= (async () => {
      try {
        const manifest = await this.manifest();
        const ready = await isModelReady(this.dir, manifest);
        const total = manifest.files.reduce((sum, file) => sum + file.size, 0);
        if (ready) this.current = { state: 'ready', progress: 100, bytesDone: total, bytesTotal: total };
        else if (this.current.state === 'absent') this.current = { ...this.current, bytesTotal: total };
        return ready;
      } catch (error) {
        this.current = { ...this.current, state: 'failed', error: error instanceof Error ? error.message : String(error) };
        return false;
      }
    })();
    const ready = await this.checked;
    if (!ready) this.checked = undefined;
    return ready;
  }

  /**
   * Downloads the missing files (once at a time); resolves true when the model is ready. Never
   * throws: a failure is kept in `status()` with its reason, and the voice stays espeak.
   */
  download(signal?: AbortSignal): Promise<boolean> {
    if (this.downloading) return this.downloading;
    const baseUrl = this.options.modelUrl;
    this.downloading = (async () => {
      if (await this.isReady()) return true;
      if (!baseUrl) {
        this.current = { ...this.current, state: 'failed', error: 'VOICE_MODEL_URL is off and the model is not in DATA_DIR/models' };
        return false;
      }
      try {
        const manifest = await this.manifest();
        this.current = { ...this.current, state: 'downloading', error: undefined };
        await downloadModel({
          baseUrl,
          dir: this.dir,
          manifest,
          ...(signal ? { signal } : {}),
          onProgress: (status) => {
            if (status.state === 'failed') return;
            this.current = { ...status, state: status.state === 'ready' ? 'ready' : 'downloading' };
            this.emit({ type: 'progress', status: this.status() });
          },
        });
        this.current = { ...this.current, state: 'ready', progress: 100 };
        this.emit({ type: 'ready' });
        return true;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.current = { ...this.current, state: 'failed', error: message };
        this.emit({ type: 'failed', error: message });
        return false;
      } finally {
        this.downloading = undefined;
      }
    })();
    return this.downloading;
  }

  /** Why a job cannot use the natural voices right now, in the words the job's result and the studio use. */
  unavailableReason(): string {
    const status = this.current;
    if (status.state === 'downloading') return `Natural voices are downloading (${status.progress}%)`;
    if (status.state === 'failed') return `Natural voices are not available: ${status.error ?? 'the model download failed'}`;
    return 'Natural voices are not downloaded yet (npm run voices:download)';
  }

  /** The loaded engine (its worker starts on first use). */
  async engine(): Promise<KokoroEngine> {
    this.engineInstance ??= new KokoroEngine(this.dir, await this.manifest());
    return this.engineInstance;
  }

  close(): void {
    this.engineInstance?.close();
    this.engineInstance = undefined;
  }
}

const models = new Map<string, NeuralVoiceModel>();

/** The process's model for these options (one per models folder, URL and manifest). */
export function getNeuralVoiceModel(options: NeuralModelOptions): NeuralVoiceModel {
  const key = JSON.stringify([path.resolve(options.modelsDir), options.modelUrl, options.manifestPath ?? null]);
  let model = models.get(key);
  if (!model) {
    model = new NeuralVoiceModel(options);
    models.set(key, model);
  }
  return model;
}
