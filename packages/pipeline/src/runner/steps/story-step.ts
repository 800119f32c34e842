import { rmSync } from 'node:fs';
import type { GenerationParams } from '@reelsmith/contracts';
import { throwIfAborted } from '../../errors.js';
import { callProvider } from '../../providers/provider-retry.js';
import type { Story, StorySource, SynthesisResult, WrittenPost } from '../../providers/types.js';
import { detectSourceLanguage } from '../../story/source-language.js';
import { cappedTargetWords } from '../../story/story-budget.js';
import { hashInputs, type Checkpointed } from '../checkpoint.js';
import { toGenerationError } from '../generation-error.js';
import { MAX_STORY_REPLANS, storyBudgetCorrection, storySecondsFor } from '../narration.js';
import { articleStorySource, type ResearchedArticle } from '../research.js';
import type { RunContext } from '../run-context.js';
import { timed } from '../step-timings.js';
import type { SetupOutput } from './setup-step.js';

/** A story scene as the runner carries it: the storyboard's seed and upload, or the written story's defaults. */
export interface RunScene {
  narration: string;
  imagePrompt: string;
  imageSeed: number;
  sourceSentences?: string[];
  uploadedImage?: { path: string; contentHash: string };
  avoidSubjects?: readonly string[];
}

export interface RunStory {
  title: string;
  scenes: RunScene[];
  /** The writer's title, summary and hashtags for the post, when it wrote them (a model does). */
  post?: WrittenPost;
}

function sameNarration(a: RunStory, b: RunStory): boolean {
  return a.scenes.length === b.scenes.length && a.scenes.every((scene, index) => scene.narration === b.scenes[index]!.narration);
}

/** A rejected draft's voicing: removed so the video's artefact folder keeps only what it uses. */
function forgetVoicing(manifestPath: string, audioPath: string): void {
  rmSync(manifestPath, { force: true });
  rmSync(audioPath, { force: true });
}

/** The job's source as the story step reads it, with the language it is written in. */
function storySource(source: GenerationParams['source']): StorySource | undefined {
  if (!source) return undefined;
  // The server fetches a link into an article before it queues the job; a bare link cannot be told.
  if (source.kind === 'url') throw new Error(`The page at ${source.url} was not fetched before the job ran`);
  // A chosen Wikipedia article is read by the research step; when it could not be, the topic (its title) is told.
  if (source.kind === 'wikipedia') return undefined;
  return {
    kind: source.kind,
    text: source.text,
    ...(source.kind === 'article' && source.title ? { title: source.title } : {}),
    language: detectSourceLanguage(source.text),
  };
}

/** Story: the creator's storyboard as it is, or a story written (and re-planned until its voice fits). */
export async function storyStep(
  ctx: RunContext,
  setup: Checkpointed<SetupOutput>,
  article: ResearchedArticle | null,
): Promise<Checkpointed<RunStory>> {
  const { params, providers, run, signal, options, retryDelays, step, voiceArtefact, voiceScene } = ctx;
  const inputs = {
    setup: setup.hash,
    story: providers.story.name,
    storyboard: run.storyboard,
    ...(article && !run.storyboard ? { article: hashInputs(article) } : {}),
  };
  const story = await step<RunStory>('story', inputs, async () => {
    // The creator's storyboard replaces the writer: nothing is written again.
    if (run.storyboard) return { title: run.storyboard.title, scenes: run.storyboard.scenes.map((scene) => ({ ...scene })) };
    let targetWords = setup.output.targetWords;
    // The story ends where the brand's closing card begins.
    const storySeconds = storySecondsFor(params.duration, run.brand?.endCard);
    // A researched article is told like an article the creator brought: every sentence is the article's.
    const source = article ? articleStorySource(article) : storySource(params.source);
    let draft: { story: RunStory; parts: SynthesisResult[] } | null = null;
    for (let attempt = 0; ; attempt += 1) {
      const written: Story = await callProvider(
        () =>
          providers.story.writeStory(
            {
              topic: params.topic,
              style: params.style,
              language: params.language,
              durationSeconds: storySeconds,
              visualStyle: params.visualStyle,
              customPrompt: params.customPrompt,
              sceneCount: setup.output.sceneCount,
              // Never more than the storyboard editor accepts for this length, so the video can be edited as written.
              targetWords: cappedTargetWords(targetWords, storySeconds),
              ...(setup.output.topicWords ? { topicWords: setup.output.topicWords } : {}),
              ...(source ? { source } : {}),
            },
            signal,
          ),
        signal,
        retryDelays,
      );
      if (written.scenes.length === 0) throw new Error('The story has no scenes');
      // A scene's seed is its first place in the story, kept when scenes move, so moving one repaints nothing.
      const planned: RunStory = {
        title: written.title,
        ...(written.post ? { post: written.post } : {}),
        scenes: written.scenes.map((scene, index) => ({
          narration: scene.narration,
          imagePrompt: scene.imagePrompt,
          imageSeed: index,
          ...(scene.sourceSentences ? { sourceSentences: scene.sourceSentences } : {}),
        })),
      };
      // A writer that does not follow the budget (a fixed template, a model that ignores it) is not asked again.
      if (draft && sameNarration(draft.story, planned)) return planned;
      // The rejected draft's voicing goes, except lines the new draft says again.
      const kept = new Set(planned.scenes.map((scene) => scene.narration));
      draft?.story.scenes.forEach((scene, index) => {
        if (!kept.has(scene.narration)) forgetVoicing(voiceArtefact(scene.narration).manifest, draft!.parts[index]!.audioPath);
      });
      if (attempt === MAX_STORY_REPLANS) return planned;
      // Voicing the story tells whether it fits once paced (the voice step reuses these parts).
      // A story the pacing cannot fit (beyond ±10% tempo) is rewritten to a budget scaled by
      // what the voice really took; a rejected draft's voicing is all it costs.
      // The scenes are voiced at once: the offline engine runs one espeak thread per core. The voice
      // failing here is the voice's failure, not the writer's: the creator is told which service let
      // them down (the voice step's message), though the story step was running.
      throwIfAborted(signal);
      const parts = await timed('story: synthesis', options.onTiming, () =>
        Promise.all(
          planned.scenes.map(
            async (scene) =>
              (await voiceScene(scene.narration).catch((error: unknown) => Promise.reject(toGenerationError('voice', error)))).part,
          ),
        ),
      );
      const correction = storyBudgetCorrection(
        parts.map((part) => part.durationSeconds),
        storySeconds,
      );
      if (correction === null) return planned;
      const next = Math.max(5, Math.round(targetWords * correction));
      if (next === targetWords) return planned;
      draft = { story: planned, parts };
      targetWords = next;
    }
  });
  if (story.output.scenes.length === 0) throw toGenerationError('story', new Error('The story has no scenes'));
  return story;
}
