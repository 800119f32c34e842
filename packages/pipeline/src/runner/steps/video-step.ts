import type { Attribution } from '@reelsmith/contracts';
import { assembleVideo, fitNarration } from '../../assembly/assemble-video.js';
import type { GeneratedScene, GenerationOutput } from '../../providers/types.js';
import type { Checkpointed } from '../checkpoint.js';
import { renderOptionsFor, renderRequestFor, videoSecondsFor } from '../render-request.js';
import { articleCredit, type ResearchedArticle } from '../research.js';
import type { RunContext } from '../run-context.js';
import { timed } from '../step-timings.js';
import type { ImagesOutput } from './images-step.js';
import type { RunStory } from './story-step.js';
import type { VoicedNarration } from './voice-step.js';

type VideoOutput = GenerationOutput;

const clipOf = (videoPath: string | null | undefined): { videoPath?: string } => (videoPath ? { videoPath } : {});

const round = (seconds: number): number => Math.round(seconds * 100) / 100;

/** Video: the pictures held for their scenes, the narration, captions, music and brand, rendered. */
export function videoStep(
  ctx: RunContext,
  story: Checkpointed<RunStory>,
  narration: Checkpointed<VoicedNarration>,
  images: Checkpointed<ImagesOutput>,
  musicBed: Promise<string | null>,
  article: ResearchedArticle | null,
): Promise<Checkpointed<VideoOutput>> {
  const { params, run, options, progress, step } = ctx;
  return step<VideoOutput>(
    'video',
    {
      narration: narration.hash,
      images: images.hash,
      params,
      preset: options.renderPreset,
      music: run.music,
      brand: run.brand ?? null,
      ...(article ? { article: { title: article.title, url: article.url } } : {}),
    },
    async () => {
      const { storySeconds } = videoSecondsFor(ctx, narration.output);
      const request = renderRequestFor(
        ctx,
        narration.output,
        images.output.imagePaths.map((imagePath, index) => ({ imagePath, ...clipOf(images.output.videoPaths?.[index]) })),
        await musicBed,
      );
      const scenes = request.scenes;
      const result = await timed('video: render', options.onTiming, () =>
        (options.assemble ?? assembleVideo)(request, {
          ...renderOptionsFor(ctx),
          onProgress: (percent) => progress.report('video', Math.min(99, percent)),
        }),
      );
      // Where each scene lands once the narration is fitted to the story's length (sped up when it
      // runs long); the closing card after it is no scene.
      const placed = fitNarration(narration.output.durationSeconds, storySeconds, narration.output.words, scenes).scenes;
      const storyEnd = Math.min(storySeconds, result.durationSeconds);
      const generated: GeneratedScene[] = story.output.scenes.map((scene, index) => {
        const start = index === 0 ? 0 : Math.min(placed[index]?.start ?? storyEnd, storyEnd);
        const end = Math.min(placed[index + 1]?.start ?? storyEnd, storyEnd);
        return {
          narration: scene.narration,
          imagePrompt: scene.imagePrompt,
          imageSeed: scene.imageSeed,
          imagePath: scenes[index]!.imagePath,
          startSeconds: round(start),
          durationSeconds: round(Math.max(0, end - start)),
          ...(scene.sourceSentences ? { sourceSentences: scene.sourceSentences } : {}),
          ...(images.output.subjects?.[index] ? { subject: images.output.subjects[index] } : {}),
          ...(images.output.attributions?.[index] ? { attribution: images.output.attributions[index] } : {}),
        };
      });
      // The article first, then each picture once (a picture two scenes share is credited once).
      const attributions: Attribution[] = [...(article ? [articleCredit(article)] : [])];
      for (const credit of images.output.attributions ?? []) {
        if (credit && !attributions.some((known) => known.sourceUrl === credit.sourceUrl)) attributions.push(credit);
      }
      return {
        title: story.output.title,
        ...result,
        scenes: generated,
        ...(images.output.credits?.length ? { credits: images.output.credits } : {}),
        ...(images.output.artwork?.length ? { artwork: images.output.artwork } : {}),
        ...(attributions.length ? { attributions } : {}),
        ...(article ? { research: { title: article.title, url: article.url } } : {}),
        ...(narration.output.notes?.length ? { notes: narration.output.notes } : {}),
      };
    },
  );
}
