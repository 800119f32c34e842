import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { throwIfAborted } from '../../errors.js';
import type { Checkpointed } from '../checkpoint.js';
import { joinNarration, planNarration, replanNarration, storySecondsFor, type Narration, type NarrationPlan } from '../narration.js';
import type { RunContext } from '../run-context.js';
import { timed } from '../step-timings.js';
import type { RunStory } from './story-step.js';

/** The voice step's output format: bumped when a checkpoint of the one before cannot be read as it is. */
const NARRATION_LAYOUT = 'per-scene-v1';

/**
 * Where each scene's narration sits (narration.ts), kept beside the video's narration artefacts. A
 * storyboard render keeps every scene whose voice is unchanged where it was and fits each re-voiced
 * scene into its own place, so an edit re-renders only the scenes it touched; a fresh story, another
 * scene count, or edits that would move the end by more than a second are paced anew.
 */
function planForRun(path: string, keys: string[], speechSeconds: number[], durationSeconds: number, storyboard: boolean): NarrationPlan {
  const previous = storyboard ? readJson<NarrationPlan>(path) : null;
  const kept = previous && Array.isArray(previous.scenes) ? replanNarration(previous, keys, speechSeconds, durationSeconds) : null;
  const plan = kept ?? planNarration(keys, speechSeconds, durationSeconds);
  writeFileSync(path, JSON.stringify(plan));
  return plan;
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Voice: each scene voiced (or its earlier voicing reused), placed by the narration plan and joined. */
/** The joined narration, and what the voice said about itself (see SynthesisResult.note). */
export type VoicedNarration = Narration & { notes?: string[] };

export function voiceStep(ctx: RunContext, story: Checkpointed<RunStory>): Promise<Checkpointed<VoicedNarration>> {
  const { params, providers, run, signal, options, progress, binaries, workspaceDir, artefactDir, step, voiceArtefact, voiceScene } = ctx;
  const sceneCount = story.output.scenes.length;
  return step<VoicedNarration>(
    'voice',
    { story: story.hash, voice: params.voice, voiceProvider: providers.voice.name, layout: NARRATION_LAYOUT },
    async () => {
      // A restart mid-step, or the next version, keeps the scenes already voiced; the rest are voiced at once.
      throwIfAborted(signal);
      let voiced = 0;
      const parts = await timed('voice: synthesis', options.onTiming, () =>
        Promise.all(
          story.output.scenes.map(async (scene, index) => {
            const { part, reused } = await voiceScene(scene.narration);
            options.onArtefact?.({ kind: 'voice', sceneIndex: index, reused });
            progress.report('voice', (++voiced / (sceneCount + 1)) * 100);
            return part;
          }),
        ),
      );
      const keys = story.output.scenes.map((scene) => voiceArtefact(scene.narration).key);
      const plan = planForRun(
        join(artefactDir, 'voice', 'placement.json'),
        keys,
        parts.map((part) => part.durationSeconds),
        // The narration's pictures end where the brand's closing card begins.
        storySecondsFor(params.duration, run.brand?.endCard),
        Boolean(run.storyboard),
      );
      const joined = await timed('voice: fitting', options.onTiming, () =>
        joinNarration(binaries, parts, plan, join(workspaceDir, 'voice', 'narration.wav'), join(artefactDir, 'voice'), signal),
      );
      // What the voice said about itself (a natural voice spoken by espeak while its model downloads), once each.
      const notes = [...new Set(parts.flatMap((part) => (part.note ? [part.note] : [])))];
      return notes.length ? { ...joined, notes } : joined;
    },
  );
}
