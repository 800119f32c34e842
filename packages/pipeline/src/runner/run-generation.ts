import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  RESOLUTION_SIZES,
  resolveMusicMood,
  type Attribution,
  type ArtworkCredit,
  type GenerationParams,
  type ImageCredit,
  type PipelineStep,
  type PostKit,
} from '@reelsmith/contracts';
import { buildPostKit, postCreditLines } from '../story/post-kit.js';
import { assembleVideo, fitNarration, planRenderAhead, type AssembleOptions, type ScenePicture } from '../assembly/assemble-video.js';
import { resolveFfmpegBinaries, type FfmpegBinaries } from '../assembly/ffmpeg-binary.js';
import { throwIfAborted } from '../errors.js';
import { GENERATED_MUSIC_VOLUME_PERCENT, writeMusicBed } from '../music/music-bed.js';
import type {
  AssemblyRequest,
  GeneratedScene,
  GenerationOutput,
  GenerationRun,
  ImageRequest,
  ImageResult,
  Story,
  StorySource,
  SynthesisResult,
  WrittenPost,
} from '../providers/types.js';
import { detectSourceLanguage } from '../story/source-language.js';
import { warmSourceTelling } from '../story/told-apart.js';
import { cappedTargetWords, countNarrationWords, languageRateFactor, planStory, sceneCountFor } from '../story/story-budget.js';
import { hashInputs, readCheckpoint, writeCheckpoint } from './checkpoint.js';
import { toGenerationError } from './generation-error.js';
import {
  joinNarration,
  MAX_STORY_REPLANS,
  planNarration,
  replanNarration,
  SCENE_GAP_SECONDS,
  storyBudgetCorrection,
  storySecondsFor,
  videoLengthFor,
  type Narration,
  type NarrationPlan,
} from './narration.js';
import { ProgressTracker } from './progress-tracker.js';
import { startTiming, timed, type StepTiming } from './step-timings.js';
import { ResearchBudget } from '../research/research-budget.js';
import {
  articleCredit,
  articleStorySource,
  findScenePicture,
  findScenePictures,
  keepArticle,
  keptResearch,
  markPictureUsed,
  researchFor,
  wantsResearch,
  type ResearchedArticle,
  type ResearchOutput,
  type ScenePictureNeed,
} from './research.js';
import { callProvider, PROVIDER_RETRY_DELAYS_MS } from '../providers/provider-retry.js';

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

export interface SetupOutput {
  width: number;
  height: number;
  sceneCount: number;
  targetWords: number;
  /** Saying the topic once, in budget words (StoryRequest.topicWords). */
  topicWords?: number;
  voiceProvider: string;
}

interface ImagesOutput {
  imagePaths: string[];
  /** Each scene's stock video clip, where it has one (absent in checkpoints written before clips). */
  videoPaths?: (string | null)[];
  /** Photographers of the stock pictures among them (absent in checkpoints written before credits). */
  credits?: ImageCredit[];
  /** What each scene's picture shows, where its provider said (absent in checkpoints written before subjects). */
  subjects?: (string | null)[];
  /** Artwork sets the pictures draw on, once each. */
  artwork?: ArtworkCredit[];
  /** Each scene's Commons picture credit, where it has one (researched videos). */
  attributions?: (Attribution | null)[];
}

/** The artefact is still there when its manifest and every file it names exist. */
function readArtefact<T>(manifestPath: string, key: string, files: (output: T) => string[]): T | null {
  const done = readCheckpoint<T>(manifestPath, key);
  return done && files(done).every((file) => existsSync(file)) ? done : null;
}

type VideoOutput = GenerationOutput;

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

function sameNarration(a: RunStory, b: RunStory): boolean {
  return a.scenes.length === b.scenes.length && a.scenes.every((scene, index) => scene.narration === b.scenes[index]!.narration);
}

/** A rejected draft's voicing: removed so the video's artefact folder keeps only what it uses. */
function forgetVoicing(manifestPath: string, audioPath: string): void {
  rmSync(manifestPath, { force: true });
  rmSync(audioPath, { force: true });
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

const clipOf = (videoPath: string | null | undefined): { videoPath?: string } => (videoPath ? { videoPath } : {});

const round = (seconds: number): number => Math.round(seconds * 100) / 100;

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

export interface Checkpointed<T> {
  output: T;
  /** A hash of the step's inputs and output: the next step's inputs name it. */
  hash: string;
}

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
  step: <T>(name: PipelineStep, inputs: unknown, work: (inputHash: string) => Promise<T>) => Promise<Checkpointed<T>>;
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

  async function step<T>(name: PipelineStep, inputs: unknown, work: (inputHash: string) => Promise<T>): Promise<Checkpointed<T>> {
    throwIfAborted(signal);
    const inputHash = hashInputs(inputs);
    const manifestPath = join(workspaceDir, name, 'manifest.json');
    const timing = startTiming(name);
    const done = readCheckpoint<T>(manifestPath, inputHash);
    if (done !== null) {
      options.onTiming?.(timing.end(true));
      progress.report(name, 100, 'reused');
      return { output: done, hash: hashInputs({ inputHash, done }) };
    }
    progress.report(name, 0);
    options.onStepRun?.(name);
    mkdirSync(join(workspaceDir, name), { recursive: true });
    try {
      const output = await work(inputHash);
      throwIfAborted(signal);
      writeCheckpoint(manifestPath, inputHash, output);
      options.onTiming?.(timing.end());
      progress.report(name, 100);
      return { output, hash: hashInputs({ inputHash, done: output }) };
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

/**
 * Research: the Wikipedia article a topic-only video (or a chosen article) is told from, kept in
 * the workspace so a resumed job does not ask again, and beside the video's artefacts for its
 * storyboard re-renders. Never fails the job: no article means the story is written as before.
 */
async function researchStep(ctx: RunContext): Promise<ResearchOutput> {
  const { params, providers, run, signal, workspaceDir, artefactDir } = ctx;
  // A storyboard render tells the creator's scenes; the article they came from is still credited.
  if (run.storyboard) return keptResearch(artefactDir);
  // Nothing to look up (research off, or not wanted): the outcome still says why.
  if (!providers.research || !wantsResearch(params)) return researchFor(params, providers.research, ctx.researchBudget, signal);
  const key = hashInputs({
    topic: params.topic,
    language: params.language,
    source: params.source ?? null,
    research: providers.research.name,
  });
  const manifest = join(workspaceDir, 'research', 'manifest.json');
  const done = readCheckpoint<ResearchOutput>(manifest, key);
  const output: ResearchOutput = done ?? (await researchFor(params, providers.research, ctx.researchBudget, signal));
  if (!done) {
    mkdirSync(join(workspaceDir, 'research'), { recursive: true });
    writeCheckpoint(manifest, key, output);
  }
  keepArticle(artefactDir, output);
  return output;
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

/** Voice: each scene voiced (or its earlier voicing reused), placed by the narration plan and joined. */
/** The joined narration, and what the voice said about itself (see SynthesisResult.note). */
type VoicedNarration = Narration & { notes?: string[] };

function voiceStep(ctx: RunContext, story: Checkpointed<RunStory>): Promise<Checkpointed<VoicedNarration>> {
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

/** One line when research gives up on a scene's picture: the operator sees why a researched video shows painted art. */
function logPictureGiveUp(note: { sceneIndex: number; what: string; reason: string }): void {
  console.info(`research: scene ${note.sceneIndex + 1} gets no Commons picture (${note.what}: ${note.reason})`);
}

/** Images: each scene's picture painted or found (or its earlier one reused), or the creator's upload. */
function imagesStep(
  ctx: RunContext,
  story: Checkpointed<RunStory>,
  setup: Checkpointed<SetupOutput>,
  article: ResearchedArticle | null,
  /** Told of each picture as soon as it is made (or found), in scene order. */
  onPicture?: (index: number, picture: ScenePicture) => void,
): Promise<Checkpointed<ImagesOutput>> {
  const { params, providers, signal, options, progress, artefactDir, retryDelays, step } = ctx;
  const sceneCount = story.output.scenes.length;
  // Commons pictures for a researched video; without research the configured provider paints as before.
  const commons = article && providers.research ? { article, research: providers.research } : null;
  return step<ImagesOutput>(
    'images',
    {
      story: story.hash,
      images: providers.images.name,
      visualStyle: params.visualStyle,
      resolution: params.resolution,
      artefactDir,
      ...(commons ? { commons: commons.article.title } : {}),
    },
    async () => {
      const imagePaths: string[] = [];
      const videoPaths: (string | null)[] = [];
      const credits: ImageCredit[] = [];
      const subjects: (string | null)[] = [];
      const artwork: ArtworkCredit[] = [];
      const attributions: (Attribution | null)[] = [];
      const usedFiles = new Set<string>();
      const imageRequestFor = (scene: RunScene, key: string): ImageRequest => ({
        prompt: scene.imagePrompt,
        visualStyle: params.visualStyle,
        width: setup.output.width,
        height: setup.output.height,
        sceneIndex: scene.imageSeed,
        outputPath: join(artefactDir, 'images', `${key}.jpg`),
        topic: params.topic,
        narration: scene.narration,
        language: params.language,
        ...(scene.avoidSubjects?.length ? { avoidSubjects: scene.avoidSubjects } : {}),
      });
      const keyOf = (scene: RunScene) =>
        hashInputs({
          prompt: scene.imagePrompt,
          seed: scene.imageSeed,
          style: params.visualStyle,
          size: [setup.output.width, setup.output.height],
          provider: providers.images.name,
          ...(scene.avoidSubjects?.length ? { avoidSubjects: scene.avoidSubjects } : {}),
          ...(commons ? { commons: commons.article.title } : {}),
        });
      // The Commons pictures every kept scene shows, later ones included, are taken: a regenerated
      // scene moves on to a picture no other scene of the video shows.
      // The others are looked up on Commons all at once, each within its own time (findScenePictures).
      const needs: ScenePictureNeed[] = [];
      if (commons) {
        for (const [index, scene] of story.output.scenes.entries()) {
          if (scene.uploadedImage) continue;
          const key = keyOf(scene);
          const kept = readCheckpoint<ImageResult>(join(artefactDir, 'images', `${key}.json`), key);
          if (kept?.attribution) markPictureUsed(usedFiles, kept.attribution);
          if (!kept) needs.push({ index, request: imageRequestFor(scene, key) });
        }
      }
      const onGiveUp = (sceneIndex: number, what: string, error: unknown) =>
        (options.onPictureGiveUp ?? logPictureGiveUp)({ sceneIndex, what, reason: error instanceof Error ? error.message : String(error) });
      const commonsPictures = commons
        ? findScenePictures(needs, commons.article, commons.research, usedFiles, { ...(signal ? { signal } : {}), onGiveUp })
        : null;
      for (const [index, scene] of story.output.scenes.entries()) {
        throwIfAborted(signal);
        if (scene.uploadedImage) {
          // The creator's picture was decoded and re-encoded at upload; it is used as it is.
          options.onArtefact?.({ kind: 'image', sceneIndex: index, reused: true });
          imagePaths.push(scene.uploadedImage.path);
          videoPaths.push(null);
          subjects.push(null);
          attributions.push(null);
          progress.report('images', ((index + 1) / sceneCount) * 100);
          continue;
        }
        const key = keyOf(scene);
        const previousSubject = subjects.at(-1);
        const manifest = join(artefactDir, 'images', `${key}.json`);
        let done = readArtefact<ImageResult>(manifest, key, (output) => [
          output.imagePath,
          ...(output.videoPath ? [output.videoPath] : []),
        ]);
        options.onArtefact?.({ kind: 'image', sceneIndex: index, reused: done !== null });
        if (!done) {
          const request = {
            ...imageRequestFor(scene, key),
            avoidSourceIds: credits.map((credit) => credit.sourceId),
            ...(previousSubject ? { previousSubject } : {}),
          };
          const found = commons
            ? await (commonsPictures?.get(index) ??
                findScenePicture(request, commons.article, commons.research, usedFiles, { ...(signal ? { signal } : {}), onGiveUp }))
            : null;
          done = found ?? (await callProvider(() => providers.images.generateImage(request, signal), signal, retryDelays));
          writeCheckpoint(manifest, key, done);
        } else if (done.attribution) {
          markPictureUsed(usedFiles, done.attribution);
        }
        imagePaths.push(done.imagePath);
        videoPaths.push(done.videoPath ?? null);
        onPicture?.(index, { imagePath: done.imagePath, ...(done.videoPath ? { videoPath: done.videoPath } : {}) });
        if (done.credit) credits.push(done.credit);
        subjects.push(done.subject ?? null);
        attributions.push(done.attribution ?? null);
        if (done.artwork && !artwork.some((credit) => credit.name === done.artwork!.name)) artwork.push(done.artwork);
        progress.report('images', ((index + 1) / sceneCount) * 100);
      }
      return {
        imagePaths,
        credits,
        subjects,
        ...(artwork.length ? { artwork } : {}),
        ...(videoPaths.some(Boolean) ? { videoPaths } : {}),
        ...(attributions.some(Boolean) ? { attributions } : {}),
      };
    },
  );
}

/** The generated music bed the job's mood asks for (null: the creator's own track, or none). */
async function musicBedFor(ctx: RunContext): Promise<string | null> {
  const { run, params, options, artefactDir } = ctx;
  const mood = run.music ? null : resolveMusicMood(params.music, params.style);
  if (!mood) return null;
  try {
    return await timed('music', options.onTiming, () => writeMusicBed(mood, join(artefactDir, 'music', `${mood}.wav`)));
  } catch (error) {
    throw toGenerationError('video', error);
  }
}

/**
 * The plan's length (an edit may move it a little so untouched scenes keep theirs), never more than
 * MAX_DURATION_DRIFT_SECONDS from the length the creator picked; the brand's closing card follows it
 * (the story was planned that much shorter).
 */
function videoSecondsFor(ctx: RunContext, narration: Narration): { storySeconds: number; durationSeconds: number } {
  const { params, run } = ctx;
  const storySeconds = videoLengthFor(narration, storySecondsFor(params.duration, run.brand?.endCard));
  return { storySeconds, durationSeconds: storySeconds + (run.brand?.endCard?.seconds ?? 0) };
}

/**
 * The render's request: the pictures held for their scenes (each until the next scene's narration
 * begins, the last until the story ends), the fitted narration, the music under it, the options.
 */
function renderRequestFor(ctx: RunContext, narration: Narration, pictures: readonly ScenePicture[], bed: string | null): AssemblyRequest {
  const { params, run, workspaceDir } = ctx;
  const { storySeconds, durationSeconds } = videoSecondsFor(ctx, narration);
  const timings = narration.scenes;
  // The creator's own track (storyboard) wins; otherwise the mood the job asked for, made offline.
  const music = run.music ?? (bed ? { path: bed, volumePercent: GENERATED_MUSIC_VOLUME_PERCENT } : undefined);
  return {
    scenes: pictures.map((picture, index) => ({
      imagePath: picture.imagePath,
      ...(picture.videoPath ? { videoPath: picture.videoPath } : {}),
      start: index === 0 ? 0 : (timings[index]?.start ?? 0),
      end: index + 1 < timings.length ? (timings[index + 1]?.start ?? storySeconds) : storySeconds,
    })),
    audioPath: narration.audioPath,
    words: narration.words,
    resolution: params.resolution,
    durationSeconds,
    enableZoom: params.enableZoom,
    zoomDirection: params.zoomDirection,
    enableCaptions: params.enableCaptions,
    captionStyle: params.captionStyle,
    language: params.language,
    outputPath: join(workspaceDir, 'video', 'video.mp4'),
    posterPath: join(workspaceDir, 'video', 'poster.jpg'),
    workDir: join(workspaceDir, 'video', 'work'),
    // Scene segments outlive the job so the next version re-renders only the scenes that changed;
    // without a video folder (npm run generate) the render keeps them in its work folder.
    ...(run.artefactDir ? { segmentCacheDir: join(run.artefactDir, 'segments') } : {}),
    ...(music ? { music } : {}),
    ...(run.brand ? { brand: run.brand } : {}),
  };
}

function renderOptionsFor(ctx: RunContext): AssembleOptions {
  const { options, binaries, signal } = ctx;
  return { binaries, ...(options.renderPreset ? { preset: options.renderPreset } : {}), ...(signal ? { signal } : {}) };
}

/**
 * The render's parts made before all the pictures are (see planRenderAhead): the soundtrack once the
 * narration and the music are ready, then each scene's segment as its picture is painted, one at a
 * time, on the core the painting (this process's thread) leaves free. When the pictures are done the
 * render takes over: `stop` drops what has not started, and the render waits for what is running.
 * Never fails the job: whatever is not made ahead the render makes.
 */
interface RenderAheadQueue {
  picture(index: number, picture: ScenePicture): void;
  stop(): void;
  /** Settles when nothing made ahead is running. */
  idle(): Promise<void>;
}

function renderAheadQueue(
  ctx: RunContext,
  story: RunStory,
  voice: Promise<Checkpointed<Narration>>,
  musicBed: Promise<string | null>,
): RenderAheadQueue {
  const { options } = ctx;
  const noop: RenderAheadQueue = { picture: () => undefined, stop: () => undefined, idle: () => Promise.resolve() };
  if (!(options.renderAhead ?? !options.assemble)) return noop;
  // The pictures' paths are not known yet: the plan names placeholders, and each scene gets its own.
  const placeholders = story.scenes.map(() => ({ imagePath: '' }));
  const plan = Promise.all([voice, musicBed]).then(([narration, bed]) =>
    planRenderAhead(renderRequestFor(ctx, narration.output, placeholders, bed), renderOptionsFor(ctx)),
  );
  plan.catch(() => undefined);
  const queue: Array<() => Promise<void>> = [];
  let running: Promise<void> | null = null;
  let stopped = false;
  const pump = () => {
    if (running || stopped) return;
    const next = queue.shift();
    if (!next) return;
    running = next()
      .catch(() => undefined)
      .finally(() => {
        running = null;
        pump();
      });
  };
  queue.push(() => timed('video: soundtrack', options.onTiming, async () => (await plan).soundtrack()));
  pump();
  return {
    picture(index, picture) {
      if (stopped) return;
      queue.push(async () => (await plan).scene(index, picture));
      pump();
    },
    stop() {
      stopped = true;
      queue.length = 0;
    },
    idle: () => running ?? Promise.resolve(),
  };
}

/** Video: the pictures held for their scenes, the narration, captions, music and brand, rendered. */
function videoStep(
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

/**
 * Topic in, MP4 out: setup → story → voice → images → video. Every step records its output in a
 * manifest in the job's workspace, keyed by a hash of its inputs, so running the same job again
 * (after a crash or a restart) reuses what is done and loses at most the step that was in flight.
 */
export async function runGeneration(run: GenerationRun, options: RunGenerationOptions = {}): Promise<GenerationOutput> {
  const started = performance.now();
  const ctx = createRunContext(run, options);
  // A source or an article is told in a sandbox thread: it is loaded meanwhile, off the story step.
  const { params, providers } = ctx;
  const toldApart = params.source ? params.source.kind !== 'script' : Boolean(providers.research) && wantsResearch(params);
  if (providers.story.name === 'offline' && toldApart && !run.storyboard) warmSourceTelling();
  // Research waits on Wikipedia while setup measures the voice: neither needs the other.
  const researching = researchStep(ctx);
  researching.catch(() => undefined);
  const setup = await setupStep(ctx);
  const research = await researching;
  const article = research.article;
  const story = await storyStep(ctx, setup, article);
  // Voice and pictures both need only the story, so they run at once: with real providers both wait
  // on the network, offline both are mostly single-threaded. If one fails the other still finishes
  // and checkpoints its artefacts, which a retry of the job then reuses.
  // The music bed needs only the job's mood, so it is made meanwhile rather than after both.
  const musicBed = musicBedFor(ctx);
  musicBed.catch(() => undefined);
  const voice = voiceStep(ctx, story);
  const ahead = renderAheadQueue(ctx, story.output, voice, musicBed);
  const pictures = imagesStep(ctx, story, setup, article, (index, picture) => ahead.picture(index, picture));
  const [narrationOutcome, imagesOutcome] = await Promise.allSettled([voice, pictures]);
  ahead.stop();
  if (narrationOutcome.status === 'rejected' || imagesOutcome.status === 'rejected') {
    // What runs ahead ends before the job fails, so no ffmpeg outlives the run that started it.
    await ahead.idle();
    throw narrationOutcome.status === 'rejected' ? narrationOutcome.reason : (imagesOutcome as PromiseRejectedResult).reason;
  }
  // The render waits for what runs ahead only where it needs it, not before it starts.
  const video = await videoStep(ctx, story, narrationOutcome.value, imagesOutcome.value, musicBed, article).finally(() => ahead.idle());

  if (!existsSync(video.output.videoPath)) {
    throw toGenerationError('video', new Error(`The finished video is missing from the workspace (${video.output.videoPath})`));
  }
  // The version took as long as the whole run; what the render drew and reused is its own.
  const renderStats = { ...video.output.renderStats, seconds: (performance.now() - started) / 1000 };
  const post = postKitFor(ctx.params, story.output, video.output);
  // Whether the story was told from Wikipedia, and if not why: the job's result says it (no silent filler).
  const told = research.outcome ? { researchOutcome: research.outcome } : {};
  return { ...video.output, renderStats, sizeBytes: statSync(video.output.videoPath).size, post, ...told };
}

/**
 * The post kit: the story writer's own (a model writes one) or one built from the story, either way
 * ending with the credits of what the video draws on and the AI-content notice.
 */
function postKitFor(params: GenerationParams, story: RunStory, video: VideoOutput): PostKit {
  const source = params.source;
  // A researched video's article is its source; its Commons pictures are credited with their licences.
  const article = video.attributions?.find((credit) => credit.kind === 'text');
  const credits = postCreditLines(params.language, {
    ...(article
      ? { source: { title: `Wikipedia: ${article.title} (${article.license})`, url: article.sourceUrl } }
      : source && source.kind !== 'script' && source.kind !== 'wikipedia'
        ? { source: { title: source.kind === 'article' ? (source.title ?? params.topic) : params.topic, url: source.url } }
        : {}),
    pictures: [
      ...(video.attributions ?? [])
        .filter((credit) => credit.kind === 'image')
        .map((credit) => ({ author: credit.author ?? credit.title, license: credit.license, sourceUrl: credit.sourceUrl })),
      ...(video.credits ?? []).map((credit) => ({ author: credit.author, license: credit.source, sourceUrl: credit.pageUrl })),
      ...(video.artwork ?? []).map((art) => ({ author: `${art.name} by ${art.author}`, license: art.licence, sourceUrl: art.url })),
    ],
  });
  return buildPostKit({
    title: story.post?.title ?? story.title,
    topic: params.topic,
    language: params.language,
    narration: story.scenes.map((scene) => scene.narration),
    credits,
    ...(story.post ? { written: story.post } : {}),
  });
}
