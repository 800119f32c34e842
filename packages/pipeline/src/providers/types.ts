import type {
  Attribution,
  ArtworkCredit,
  BrandFontId,
  CaptionStyle,
  GenerationParams,
  ImageCredit,
  LogoPosition,
  PipelineStep,
  PostKit,
  RenderStats,
  ResearchOutcome,
  Resolution,
  VisualStyle,
  VoiceLanguage,
  ZoomDirection,
} from '@reelsmith/contracts';

/** Health as the admin dashboard shows it. */
export interface ProviderHealthReport {
  name: string;
  status: 'healthy' | 'error';
  details: string;
}

/** Every provider, whatever its kind, names itself and can report its health without side effects. */
export interface Provider {
  readonly name: string;
  health(signal?: AbortSignal): Promise<ProviderHealthReport>;
}

// ---------- Story ----------
export interface Scene {
  /** What the narrator says in this scene. */
  narration: string;
  /** What the picture of this scene shows, already written in the chosen visual style. */
  imagePrompt: string;
  /** For a story told from a source: the source's sentences this scene tells, as the source wrote them. */
  sourceSentences?: string[];
}

export interface Story {
  title: string;
  scenes: Scene[];
  /** A title, a two-or-three-sentence summary and hashtags for the post, when the writer wrote them (a model does). */
  post?: WrittenPost;
}

export interface WrittenPost {
  title: string;
  summary: string;
  hashtags: string[];
}

export interface StoryRequest {
  topic: string;
  /** One of the 20 styles, or the creator's own custom style text. */
  style: string;
  language: string;
  durationSeconds: number;
  visualStyle: VisualStyle;
  customPrompt: string;
  sceneCount: number;
  /** Total words the narration should have so it fits the duration at the voice's rate. */
  targetWords: number;
  /**
   * What saying the topic once costs, in the same budget words, as the voice really says it (a
   * topic in another script can take a voice many times longer than its letters suggest). Absent
   * when the voice cannot tell; the writer then counts the topic's words.
   */
  topicWords?: number;
  /** The creator's script or article: the story is told from it instead of written around the topic. */
  source?: StorySource;
}

/** A source as the story step reads it (a link has been fetched into an article before the job ran). */
export interface StorySource {
  kind: 'script' | 'article';
  text: string;
  title?: string;
  /** The language the source is written in (ISO 639-1), when it could be detected. */
  language?: string | null;
}

export interface StoryProvider extends Provider {
  writeStory(request: StoryRequest, signal?: AbortSignal): Promise<Story>;
}

// ---------- Voice ----------
export interface WordTiming {
  word: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
}

export interface SynthesisRequest {
  text: string;
  voiceId: string;
  language: VoiceLanguage | string;
  /** Where to write the audio; the provider picks the container it writes (wav or mp3) via `format`. */
  outputPath: string;
}

export interface SynthesisResult {
  audioPath: string;
  durationSeconds: number;
  /** Never empty: estimated from the audio when the provider gives none. */
  words: WordTiming[];
  /** Said in the job's result: why the audio is not what was asked (a natural voice spoken by espeak while its model downloads). */
  note?: string;
}

export interface VoiceProvider extends Provider {
  /** Words per minute this provider speaks at by default, used to budget narration length. */
  readonly wordsPerMinute: number;
  /**
   * How fast this voice really speaks this language (measured), when the provider can tell; the
   * story is then budgeted for it instead of the nominal rate scaled per language.
   */
  wordsPerMinuteFor?(voiceId: string, language: string, signal?: AbortSignal): Promise<number | null>;
  /**
   * Seconds this voice takes to say `text`, measured without writing anything, where that is cheap
   * (a local voice); remote voices leave it out rather than pay for a call.
   */
  speechSecondsFor?(text: string, voiceId: string, language: string, signal?: AbortSignal): Promise<number | null>;
  synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<SynthesisResult>;
}

// ---------- Images ----------
export interface ImageRequest {
  prompt: string;
  visualStyle: VisualStyle;
  width: number;
  height: number;
  /** Index of the scene; used together with the prompt as a deterministic seed. */
  sceneIndex: number;
  outputPath: string;
  /** The video's topic: stock searches fall back to it when the scene's prompt finds nothing. */
  topic?: string;
  /** Stock pictures earlier scenes of this video already use (ImageCredit.sourceId). */
  avoidSourceIds?: readonly string[];
  /** What the narrator says over this picture: with the prompt, it says what the picture should show. */
  narration?: string;
  /** The narration's language (en, hi, ja, de, es, fr, pt). */
  language?: string;
  /** The subject the scene before shows (ImageResult.subject): repeated only when this scene names it. */
  previousSubject?: string;
  /** Subjects this scene showed before it was regenerated: a new picture shows the next best one. */
  avoidSubjects?: readonly string[];
}

export interface ImageResult {
  imagePath: string;
  /**
   * A moving clip for the scene (stock video), with `imagePath` as its still for thumbnails. The
   * assembly trims and scales it into the scene, without Ken Burns motion on top.
   */
  videoPath?: string;
  /** Set by stock providers: the photographer to credit. */
  credit?: ImageCredit;
  /** The main thing the picture shows, in English ("bicycle"), when the provider knows it. */
  subject?: string;
  /** The artwork set the picture draws on, to be credited (the offline painter's Fluent Emoji). */
  artwork?: ArtworkCredit;
  /** A free-licensed picture found for the video's article (Wikimedia Commons): its credit. */
  attribution?: Attribution;
}

export interface ImageProvider extends Provider {
  generateImage(request: ImageRequest, signal?: AbortSignal): Promise<ImageResult>;
}

export interface Providers {
  story: StoryProvider;
  voice: VoiceProvider;
  images: ImageProvider;
  /**
   * Looks a topic-only video's topic up (Wikipedia and Commons) before the story; absent when
   * RESEARCH_PROVIDER=off or the admin switched it off.
   */
  research?: ResearchProvider;
}

// ---------- Research ----------
export interface WikipediaArticleMatch {
  title: string;
  url: string;
  description?: string;
}

export interface WikipediaArticle {
  title: string;
  url: string;
  /** The article as plain text: paragraphs, section headings and reference sections removed. */
  text: string;
  /** The article's own lead picture (a file name without the namespace), when it has one. */
  leadImage?: string;
  disambiguation: boolean;
}

export interface PictureRequest {
  /** What the narrator says over the picture, in the article's language: its nouns are searched, its words rank the pictures. */
  sceneText: string;
  /** The article the video tells: its own pictures come first, its title goes with every search. */
  article: { title: string; language: string; leadImage?: string };
  width: number;
  height: number;
  /** Files ("File:….jpg") this scene must not show (other scenes', or the one it showed before a regenerate). */
  avoidFiles: ReadonlySet<string>;
}

/** A free Commons picture that may illustrate a scene, with its credit; its bytes are downloaded once it is chosen. */
export interface PictureCandidate {
  /** "File:….jpg". */
  fileName: string;
  /** How many of the scene's words the picture's title and description carry (0: it only belongs to the article). */
  relevance: number;
  downloadUrl: string;
  attribution: Attribution;
}

/**
 * Research for a topic-only video: the narration language's Wikipedia article that clearly matches
 * the topic, and Commons pictures for its scenes. Every method may throw (network, odd answers);
 * the runner calls them through a ResearchBudget, which turns any failure into "no research".
 */
export interface ResearchProvider extends Provider {
  readonly name: 'wikipedia';
  /** The top matches of a topic, best first (the studio's picker). */
  findArticles(query: string, language: string, signal: AbortSignal): Promise<WikipediaArticleMatch[]>;
  /** The article a topic is told from, or null when none clearly matches. */
  findArticle(topic: string, language: string, signal: AbortSignal): Promise<WikipediaArticle | null>;
  /** The article the creator chose, by title; null when it does not exist or is no article. */
  readArticle(title: string, language: string, signal: AbortSignal): Promise<WikipediaArticle | null>;
  /** Free pictures for a scene, best first: the article's own and the scene's searches, ranked by relevance, then shape. */
  findPictures(request: PictureRequest, signal: AbortSignal): Promise<PictureCandidate[]>;
  /** A chosen candidate's bytes (a JPEG, PNG or WebP), from an allowed media host only. */
  downloadPicture(candidate: PictureCandidate, signal: AbortSignal): Promise<Buffer>;
}

// ---------- Assembly ----------
export interface AssemblyScene {
  imagePath: string;
  /** A moving clip shown instead of the still (looped if shorter than the scene). */
  videoPath?: string;
  /** Seconds from the start of the video. */
  start: number;
  end: number;
}

export interface AssemblyRequest {
  scenes: AssemblyScene[];
  audioPath: string;
  words: WordTiming[];
  resolution: Resolution;
  durationSeconds: number;
  enableZoom: boolean;
  zoomDirection: ZoomDirection;
  enableCaptions: boolean;
  captionStyle: CaptionStyle;
  language: string;
  outputPath: string;
  posterPath: string;
  workDir: string;
  /**
   * Per-video folder of rendered scene segments, reused across versions: a scene whose segment inputs
   * are unchanged is not rendered again.
   */
  segmentCacheDir?: string;
  /** A background track mixed under the narration with ducking; volume 0-100. */
  music?: { path: string; volumePercent: number };
  /** The creator's brand kit: logo, caption font, accent colour and end card. */
  brand?: RenderBrand;
}

/** A brand kit as the renderer takes it: the logo already a file on disk. */
export interface RenderBrand {
  accentColor: string;
  fontId: BrandFontId;
  logo: { path: string; position: LogoPosition; scale: number; opacity: number } | null;
  endCard: { text: string; seconds: number } | null;
}

// ---------- Progress ----------
export interface ProgressUpdate {
  step: PipelineStep;
  /** 0-100 within the step. */
  stepProgress: number;
  /** 0-100 overall; never decreases over a run. */
  progress: number;
  message?: string;
}

export type ProgressListener = (update: ProgressUpdate) => void;

/** One scene of a storyboard the creator edited: it replaces the written story. */
export interface StoryboardSceneInput {
  narration: string;
  imagePrompt: string;
  /** Seeds the generated picture; a new seed paints a new variation of the same prompt. */
  imageSeed: number;
  /** The creator's own (already re-encoded) picture instead of a generated one. */
  uploadedImage?: { path: string; contentHash: string };
  /** Subjects this scene's earlier pictures showed: a regenerated picture moves on to the next best. */
  avoidSubjects?: readonly string[];
}

export interface StoryboardInput {
  title: string;
  scenes: StoryboardSceneInput[];
}

export interface GenerationRun {
  jobId: string;
  params: GenerationParams;
  /** The job's own folder: every step writes its output and manifest here. */
  workspaceDir: string;
  providers: Providers;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /**
   * The video's own folder that outlives the job's workspace: narration, pictures and rendered
   * segments are kept here by a hash of their inputs, so the next version reuses what did not change.
   */
  artefactDir?: string;
  /** The creator's storyboard: when given, it replaces the written story. */
  storyboard?: StoryboardInput;
  /** Background music mixed under the narration. */
  music?: { path: string; volumePercent: number };
  /** The brand kit applied to this render. */
  brand?: RenderBrand;
}

/** Where a scene landed in the finished video, and what it was made from. */
export interface GeneratedScene {
  narration: string;
  imagePrompt: string;
  imageSeed: number;
  imagePath: string;
  startSeconds: number;
  durationSeconds: number;
  /** The source sentences the scene tells (videos made from a script or an article). */
  sourceSentences?: string[];
  /** What the picture shows, in English, when its provider said. */
  subject?: string;
  /** The picture's credit when it is a Commons picture. */
  attribution?: Attribution;
}

/** What a caption file is made from (assembly/caption-files.ts), kept with each rendered version. */
export interface CaptionTrack {
  /** The words as the video speaks them, on the video's clock. */
  words: WordTiming[];
  /** Where the pictures change, in seconds: no cue spans one. */
  cuts: number[];
  language: string;
}

/** What the final render made and what it did. */
export interface AssemblyResult {
  videoPath: string;
  posterPath: string;
  durationSeconds: number;
  width: number;
  height: number;
  sizeBytes: number;
  /**
   * Scene segments drawn afresh and taken from the segment cache, and the wall-clock seconds: of the
   * render alone in an assembly's result, of the whole run (story to video) in a generation's.
   */
  renderStats: RenderStats;
  /** The encoded soundtrack came from the segment cache (only pictures or captions changed). */
  soundtrackReused?: boolean;
  /** The spoken words on the video's clock and its scene cuts: what the caption files are made from. */
  captionTrack?: CaptionTrack;
}

export interface GenerationOutput extends AssemblyResult {
  title: string;
  /** Title, description and hashtags for posting the video. */
  post?: PostKit;
  /** The scenes as rendered (their timings feed the storyboard). */
  scenes?: GeneratedScene[];
  /** Photographers of the stock pictures used, in scene order. */
  credits?: ImageCredit[];
  /** Artwork sets the pictures draw on, once each. */
  artwork?: ArtworkCredit[];
  /** The Wikipedia article the story was told from (researched or chosen), and the Commons pictures shown. */
  attributions?: Attribution[];
  /** What the creator should know about how it was made (the voice's notes: a natural voice spoken by espeak while its model downloads). */
  notes?: string[];
  /** The article itself, for the video's "Based on Wikipedia: <title>". */
  research?: { title: string; url: string };
  /** Whether the story was told from Wikipedia and, if not, why (the job result's `research`). */
  researchOutcome?: ResearchOutcome;
}
