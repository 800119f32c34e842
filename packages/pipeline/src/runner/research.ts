import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attribution, GenerationParams, ResearchOutcome } from '@reelsmith/contracts';
import type { ImageRequest, ImageResult, ResearchProvider, StorySource } from '../providers/types.js';
import { articleAttribution, fileTitle } from '../research/commons-licence.js';
import { ResearchBudget } from '../research/research-budget.js';

/** The article a video is told from, as the job keeps it (its workspace, and the video's artefact folder). */
export interface ResearchedArticle {
  title: string;
  url: string;
  text: string;
  leadImage?: string;
  /** The narration language: the article was read from that language's Wikipedia. */
  language: string;
}

/** What research found for one run; `article: null` when nothing matched or Wikimedia did not answer. */
export interface ResearchOutput {
  article: ResearchedArticle | null;
  /**
   * Whether the video is told from Wikipedia and, if not, why (the job's `result.research`). Absent
   * for a video made from a script, an article or a link, and in checkpoints written before it.
   */
  outcome?: ResearchOutcome;
}

/** The search hits offered to pick from when no article matches (the studio's picker shows as many). */
const OFFERED_ARTICLES = 5;

/** True when a job asks for research: a topic-only request (research not refused), or a chosen Wikipedia article. */
export function wantsResearch(params: GenerationParams): boolean {
  if (params.source) return params.source.kind === 'wikipedia';
  return params.research !== false;
}

/**
 * The article for this job, within the budget: the creator's chosen one, else the narration
 * language's article that clearly matches the topic. Null (told offline as before) when research is
 * off, nothing matches, or Wikimedia fails, is slow or answers badly.
 */
export async function findArticle(
  params: GenerationParams,
  research: ResearchProvider,
  budget: ResearchBudget,
  signal?: AbortSignal,
): Promise<ResearchedArticle | null> {
  return (await researchFor(params, research, budget, signal)).article;
}

/**
 * Research for one job, and what it came to: the article (as findArticle), and the outcome the job's
 * result reports, so a video told without Wikipedia says why instead of shipping filler in silence:
 * `off` (no research provider: switched off on the server), `declined` (the creator's "Don't look it
 * up"), `unreachable` (Wikimedia failed or did not answer within the budget) or `no-article` (it
 * answered, and nothing matches; the search's hits go with it to pick from).
 */
export async function researchFor(
  params: GenerationParams,
  research: ResearchProvider | null | undefined,
  budget: ResearchBudget,
  signal?: AbortSignal,
): Promise<ResearchOutput> {
  // A script, an article or a link is told as it is: research has nothing to say about it.
  if (params.source && params.source.kind !== 'wikipedia') return { article: null };
  if (!wantsResearch(params)) return { article: null, outcome: { used: false, reason: 'declined' } };
  if (!research) return { article: null, outcome: { used: false, reason: 'off' } };
  const chosen = params.source?.kind === 'wikipedia' ? params.source.title : null;
  // Wrapped, so that "Wikimedia answered: no article" (article null) is told apart from "no answer" (null).
  const answer = await budget.spend(
    'article',
    async (lookup) => ({
      article: await (chosen
        ? research.readArticle(chosen, params.language, lookup)
        : research.findArticle(params.topic, params.language, lookup)),
    }),
    signal,
  );
  if (!answer) return { article: null, outcome: { used: false, reason: 'unreachable' } };
  const { article } = answer;
  if (!article) {
    // The search the look-up made is cached: its hits are what the creator can pick from instead.
    const hits = await budget.spend('search', (lookup) => research.findArticles(chosen ?? params.topic, params.language, lookup), signal);
    const articles = (hits ?? []).slice(0, OFFERED_ARTICLES).map((hit) => ({
      title: hit.title,
      url: hit.url,
      ...(hit.description ? { description: hit.description } : {}),
    }));
    return { article: null, outcome: { used: false, reason: 'no-article', ...(articles.length > 0 ? { articles } : {}) } };
  }
  return {
    article: {
      title: article.title,
      url: article.url,
      text: article.text,
      ...(article.leadImage ? { leadImage: article.leadImage } : {}),
      language: params.language,
    },
    outcome: { used: true },
  };
}

/** The article as the story step reads it: told like an article source, every sentence its own. */
export function articleStorySource(article: ResearchedArticle): StorySource {
  return { kind: 'article', text: article.text, title: article.title, language: article.language };
}

export function articleCredit(article: ResearchedArticle): Attribution {
  return articleAttribution(article);
}

const ARTICLE_FILE = 'research.json';

/** Kept beside the video's artefacts, so a storyboard re-render still credits and illustrates the article. */
export function keepArticle(artefactDir: string, output: ResearchOutput): void {
  writeFileSync(join(artefactDir, ARTICLE_FILE), JSON.stringify(output));
}

export function keptArticle(artefactDir: string): ResearchedArticle | null {
  return keptResearch(artefactDir).article;
}

/** What research came to for the video's first render, kept beside its artefacts (its storyboard renders report it too). */
export function keptResearch(artefactDir: string): ResearchOutput {
  const path = join(artefactDir, ARTICLE_FILE);
  if (!existsSync(path)) return { article: null };
  try {
    const kept = JSON.parse(readFileSync(path, 'utf8')) as ResearchOutput;
    return { article: kept.article ?? null, ...(kept.outcome ? { outcome: kept.outcome } : {}) };
  } catch {
    return { article: null };
  }
}

/** Each scene's pictures are searched and downloaded within this time of its own, all scenes at once. */
export const SCENE_PICTURE_BUDGET_MS = 6_000;

/** Told when research gives up on a scene's picture (the scene then gets the configured provider's). */
export type PictureGiveUp = (sceneIndex: number, what: string, error: unknown) => void;

/** A scene that needs a picture: its index in the video and what the image provider would be asked. */
export interface ScenePictureNeed {
  index: number;
  request: ImageRequest;
}

const pictureRequest = (request: ImageRequest, article: ResearchedArticle, usedFiles: ReadonlySet<string>) => ({
  // The scene's own words, in the article's language: never the offline painter's English subjects.
  sceneText: request.narration ?? request.prompt,
  article: { title: article.title, language: article.language, ...(article.leadImage ? { leadImage: article.leadImage } : {}) },
  width: request.width,
  height: request.height,
  // A regenerated scene moves on from the pictures it showed (their files are what "Regenerate" avoids).
  avoidFiles: new Set([...usedFiles, ...(request.avoidSubjects ?? []).filter((name) => name.startsWith('File:'))]),
});

/**
 * Commons pictures for the scenes of a researched video, looked up all at once: every scene's
 * candidates are searched in parallel, each scene within its own budget (a slow Wikimedia costs a
 * scene its picture, never every later scene's), then pictures are given out in scene order (the
 * best one no earlier scene took) and downloaded in parallel, a failed download falling to the
 * scene's next candidate. Each promise answers null when nothing free fits; the scene then gets the
 * configured provider's picture, and `onGiveUp` says why.
 */
export function findScenePictures(
  needs: readonly ScenePictureNeed[],
  article: ResearchedArticle,
  research: ResearchProvider,
  usedFiles: Set<string>,
  options: { signal?: AbortSignal; budgetMs?: number; onGiveUp?: PictureGiveUp } = {},
): Map<number, Promise<ImageResult | null>> {
  const { signal, budgetMs = SCENE_PICTURE_BUDGET_MS, onGiveUp } = options;
  const taken = new Set(usedFiles);
  const scenes = needs.map((need) => {
    const budget = new ResearchBudget(budgetMs, (what, error) => onGiveUp?.(need.index, what, error));
    const request = pictureRequest(need.request, article, taken);
    return { need, budget, candidates: budget.spend('picture search', (lookup) => research.findPictures(request, lookup), signal) };
  });
  // Given out in scene order once every scene's search is in: the same video always shows the same pictures.
  const assigned = Promise.all(scenes.map((scene) => scene.candidates)).then((lists) =>
    lists.map((candidates) => {
      const fresh = (candidates ?? []).filter((candidate) => !taken.has(candidate.fileName));
      if (fresh[0]) taken.add(fresh[0].fileName);
      // null: the search failed or ran out of time, and the budget has said so already.
      return { fresh, searched: candidates !== null };
    }),
  );
  const results = new Map<number, Promise<ImageResult | null>>();
  scenes.forEach(({ need, budget }, position) => {
    const picture = assigned.then(async (lists) => {
      const { fresh: candidates, searched } = lists[position]!;
      if (candidates.length === 0) {
        if (searched) onGiveUp?.(need.index, 'picture search', new Error('no free picture fits the scene'));
        return null;
      }
      for (const [attempt, candidate] of candidates.entries()) {
        // The first is this scene's; a later one only if no other scene has taken it meanwhile.
        if (attempt > 0) {
          if (taken.has(candidate.fileName)) continue;
          taken.add(candidate.fileName);
        }
        const bytes = await budget.spend('picture download', (lookup) => research.downloadPicture(candidate, lookup), signal);
        if (!bytes) {
          if (budget.remainingMs <= 0) return null;
          continue;
        }
        writeFileSync(need.request.outputPath, bytes);
        usedFiles.add(candidate.fileName);
        return { imagePath: need.request.outputPath, subject: fileTitle(candidate.fileName), attribution: candidate.attribution };
      }
      return null;
    });
    // A job cancelled before this scene's turn must not leave an unhandled rejection behind.
    picture.catch(() => undefined);
    results.set(need.index, picture);
  });
  return results;
}

/** One scene's Commons picture (a scene looked up on its own, as a re-rendered storyboard scene is). */
export async function findScenePicture(
  request: ImageRequest,
  article: ResearchedArticle,
  research: ResearchProvider,
  usedFiles: Set<string>,
  options: { signal?: AbortSignal; budgetMs?: number; onGiveUp?: PictureGiveUp } = {},
): Promise<ImageResult | null> {
  const found = findScenePictures([{ index: request.sceneIndex, request }], article, research, usedFiles, options);
  return (await found.get(request.sceneIndex)) ?? null;
}

/**
 * The Commons file ("File:Octopus vulgaris.jpg") a picture credit names: the last part of its
 * page's address. Null for a credit that is not a Commons file page.
 */
export function commonsFileOf(attribution: Attribution): string | null {
  if (attribution.kind !== 'image') return null;
  const page = /\/wiki\/([^?#]+)$/.exec(attribution.sourceUrl)?.[1];
  if (!page) return null;
  try {
    return decodeURIComponent(page).replaceAll('_', ' ');
  } catch {
    // A page address that does not decode names no file this video could pick again.
    return null;
  }
}

/** A reused scene's Commons picture counts as used. */
export function markPictureUsed(usedFiles: Set<string>, attribution: Attribution): void {
  const file = commonsFileOf(attribution);
  if (file) usedFiles.add(file);
}
