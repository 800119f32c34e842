import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationParams, PipelineStep } from '@reelsmith/contracts';
import type { assembleVideo } from '../assembly/assemble-video.js';
import { resolveFfmpegBinaries, type FfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { throwIfAborted } from '../errors.js';
import { callProvider, PROVIDER_RETRY_DELAYS_MS } from '../providers/provider-retry.js';
import type { GenerationRun, SynthesisResult } from '../providers/types.js';
import { ResearchBudget } from '../research/research-budget.js';
import { hashInputs, readArtefact, runCheckpointed, writeCheckpoint, type Checkpointed } from './checkpoint.js';
import { toGenerationError } from './generation-error.js';
import { ProgressTracker } from './progress-tracker.js';
import { startTiming, type StepTiming } from './step-timings.js';

export interface RunGenerationOptions {
  binaries?: FfmpegBinaries;
  /** x264 preset of the final render. */
  renderPreset?: string;
  /** Called with a step's name each time it really runs (not when a checkpoint is reused). */
  onStepRun?: (step: PipelineStep) => void;
  /** The final render; tests of the step logic pass a quick one. */
  assemble?: typeof assembleVideo;
  /**
   * Make the soundtrack and scene segments ahead of the render, as their inputs become ready (on by
   * default; off by default when `assemble` replaces the render, whose cache the parts would not fit).
   */
  renderAhead?: boolean;
  /** Backoff before each retry of a retryable provider failure (default 1 s, 2 s, 4 s). */
  providerRetryDelaysMs?: readonly number[];
  /** Called for each scene's narration and picture: made now, or reused from the artefact folder. */
  onArtefact?: (artefact: { kind: 'voice' | 'image'; sceneIndex: number; reused: boolean }) => void;
  /** Called as each step (and each phase worth telling apart inside one) ends, with how long it took. */
  onTiming?: (timing: StepTiming) => void;
  /** Told when research gives up on a scene's Commons picture (default: one line on the console). */
  onPictureGiveUp?: (note: { sceneIndex: number; what: string; reason: string }) => void;
}

/** A step of the job (reported in its progress), or research, checkpointed the same way before them. */
export type RunStep = PipelineStep | 'research';

/** What every step works with: the job, its folders, its tools, and the checkpointing around each step. */
export interface RunContext {
  run: GenerationRun;
  params: GenerationParams;
  providers: GenerationRun['providers'];
  signal: AbortSignal | undefined;
  options: RunGenerationOptions;
  progress: ProgressTracker;
  binaries: FfmpegBinaries;
  retryDelays: readonly number[];
  workspaceDir: string;
  /** Narration and pictures live in the video's artefact folder (or the workspace for a one-off run). */
  artefactDir: string;
  /** Runs a step unless its manifest says it is done for these inputs. */
  step: <T>(name: RunStep, inputs: unknown, work: (inputHash: string) => Promise<T>) => Promise<Checkpointed<T>>;
  voiceArtefact: (narration: string) => { key: string; manifest: string; audioPath: string };
  /** A scene's narration voiced, or its earlier voicing; each scene is its own artefact. */
  voiceScene: (narration: string) => Promise<{ part: SynthesisResult; reused: boolean }>;
  /** The time this run may still wait on Wikimedia (8 s in all). */
  researchBudget: ResearchBudget;
}

export function createRunContext(run: GenerationRun, options: RunGenerationOptions): RunContext {
  const { params, providers, signal, workspaceDir } = run;
  const progress = new ProgressTracker(run.onProgress);
  const binaries = options.binaries ?? resolveFfmpegBinaries();
  mkdirSync(workspaceDir, { recursive: true });
  const retryDelays = options.providerRetryDelaysMs ?? PROVIDER_RETRY_DELAYS_MS;

  async function step<T>(name: RunStep, inputs: unknown, work: (inputHash: string) => Promise<T>): Promise<Checkpointed<T>> {
    // Research is checkpointed like a step but is no step of the job's progress: it is neither
    // reported, nor timed, nor cancelled by itself, and never fails the job (researchFor).
    if (name === 'research') return runCheckpointed(workspaceDir, name, inputs, work);
    throwIfAborted(signal);
    const timing = startTiming(name);
    try {
      return await runCheckpointed(workspaceDir, name, inputs, work, {
        reused: () => {
          options.onTiming?.(timing.end(true));
          progress.report(name, 100, 'reused');
        },
        started: () => {
          progress.report(name, 0);
          options.onStepRun?.(name);
        },
        finishing: () => throwIfAborted(signal),
        finished: () => {
          options.onTiming?.(timing.end());
          progress.report(name, 100);
        },
      });
    } catch (error) {
      throw toGenerationError(name, error);
    }
  }

  // Narration and pictures live in the video's artefact folder (or the workspace for a one-off run),
  // named by a hash of what they are made from: an edit finds everything it did not change.
  const artefactDir = run.artefactDir ?? workspaceDir;
  mkdirSync(join(artefactDir, 'voice'), { recursive: true });
  mkdirSync(join(artefactDir, 'images'), { recursive: true });

  const voiceArtefact = (narration: string) => {
    const key = hashInputs({ text: narration, voice: params.voice, language: params.language, provider: providers.voice.name });
    return { key, manifest: join(artefactDir, 'voice', `${key}.json`), audioPath: join(artefactDir, 'voice', `${key}.wav`) };
  };
  /** A scene's narration voiced, or its earlier voicing; each scene is its own artefact. */
  async function voiceScene(narration: string): Promise<{ part: SynthesisResult; reused: boolean }> {
    const { key, manifest, audioPath } = voiceArtefact(narration);
    const done = readArtefact<SynthesisResult>(manifest, key, (output) => [output.audioPath]);
    if (done) return { part: done, reused: true };
    const part = await callProvider(
      () =>
        providers.voice.synthesize({ text: narration, voiceId: params.voice, language: params.language, outputPath: audioPath }, signal),
      signal,
      retryDelays,
    );
    writeCheckpoint(manifest, key, part);
    return { part, reused: false };
  }

  return {
    run,
    params,
    providers,
    signal,
    options,
    progress,
    binaries,
    retryDelays,
    workspaceDir,
    artefactDir,
    step,
    voiceArtefact,
    voiceScene,
    researchBudget: new ResearchBudget(),
  };
}
