import { RESOLUTION_SIZES } from '@reelsmith/contracts';
import { countNarrationWords, languageRateFactor, planStory, sceneCountFor } from '../../story/story-budget.js';
import type { Checkpointed } from '../checkpoint.js';
import { SCENE_GAP_SECONDS, storySecondsFor } from '../narration.js';
import type { RunContext } from '../run-context.js';

export interface SetupOutput {
  width: number;
  height: number;
  sceneCount: number;
  targetWords: number;
  /** Saying the topic once, in budget words (StoryRequest.topicWords). */
  topicWords?: number;
  voiceProvider: string;
}

/** Setup: the frame size, the scene count and the story's word budget for the voice. */
export function setupStep(ctx: RunContext): Promise<Checkpointed<SetupOutput>> {
  const { params, providers, signal, step } = ctx;
  const storyboard = Boolean(ctx.run.storyboard);
  const storySeconds = storySecondsFor(params.duration, ctx.run.brand?.endCard);
  return step<SetupOutput>('setup', { params, voice: providers.voice.name, storyboard, storySeconds }, async () => {
    const { width, height } = RESOLUTION_SIZES[params.resolution];
    const sceneCount = sceneCountFor(params.duration);
    // The pauses between scenes, and the brand's closing card after the last word, take time the
    // narration cannot use.
    const speakingSeconds = storySeconds - SCENE_GAP_SECONDS * (sceneCount - 1);
    // The voice's own measured pace in this language, where it can say; else its nominal rate.
    // The topic is spoken meanwhile (below): the offline engine has a thread for each.
    const measuring = providers.voice.wordsPerMinuteFor?.(params.voice, params.language, signal).catch(() => null);
    // A topic in another script (or full of emoji, digits, abbreviations) takes a voice far longer,
    // or shorter, than its letters suggest: the writer budgets each mention of it at what the voice
    // really takes, in the same words-per-minute unit as the budget.
    // A source or the creator's storyboard is told as written: no topic is slotted in.
    const topicSpeaking =
      params.source || storyboard
        ? null
        : providers.voice.speechSecondsFor?.(params.topic, params.voice, params.language, signal).catch(() => null);
    const [measured, topicSeconds] = await Promise.all([measuring, topicSpeaking]);
    const { targetWords } = measured
      ? planStory(speakingSeconds, measured, params.language, { measuredRate: true })
      : planStory(speakingSeconds, providers.voice.wordsPerMinute, params.language);
    const wordsPerMinute = measured ?? providers.voice.wordsPerMinute * languageRateFactor(params.language);
    const measuredTopic = topicSeconds ? (topicSeconds / 60) * wordsPerMinute : undefined;
    // A topic the voice says at about the pace of its words is counted by its words, as every other
    // sentence is: the same story as before, not a new one for a measurement's noise.
    const counted = countNarrationWords(params.topic, params.language);
    const topicWords =
      measuredTopic === undefined ? undefined : measuredTopic > counted * 1.25 || measuredTopic < counted * 0.8 ? measuredTopic : counted;
    return { width, height, sceneCount, targetWords, ...(topicWords ? { topicWords } : {}), voiceProvider: providers.voice.name };
  });
}
