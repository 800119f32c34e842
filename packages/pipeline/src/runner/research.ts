import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attribution, GenerationParams } from '@reelsmith/contracts';
import { chooseSceneSubjects } from '../images/offline-image-subject-choice.js';
import type { ImageRequest, ImageResult, ResearchProvider, StorySource } from '../providers/types.js';
import { articleAttribution, fileTitle } from '../research/commons-licence.js';
import type { ResearchBudget } from '../research/research-budget.js';

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
}

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
  const chosen = params.source?.kind === 'wikipedia' ? params.source.title : null;
  const article = await budget.spend(
    'article',
    (lookup) =>
      chosen ? research.readArticle(chosen, params.language, lookup) : research.findArticle(params.topic, params.language, lookup),
    signal,
  );
  if (!article) return null;
  return {
    title: article.title,
    url: article.url,
    text: article.text,
    ...(article.leadImage ? { leadImage: article.leadImage } : {}),
    language: params.language,
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
  const path = join(artefactDir, ARTICLE_FILE);
  if (!existsSync(path)) return null;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as ResearchOutput).article ?? null;
  } catch {
    return null;
  }
}

/**
 * A Commons picture for one scene of a researched video, within what is left of the budget: the
 * article's lead image for the first scene it suits, else a search with the scene's subject (the one
 * the offline painter would draw) and the article's title, else the title alone. Null when nothing
 * free fits; the scene then gets the configured provider's picture.
 */
export async function findScenePicture(
  request: ImageRequest,
  article: ResearchedArticle,
  research: ResearchProvider,
  budget: ResearchBudget,
  usedFiles: Set<string>,
  signal?: AbortSignal,
): Promise<ImageResult | null> {
  if (budget.remainingMs <= 0) return null;
  const subject = chooseSceneSubjects({
    prompt: request.prompt,
    ...(request.narration !== undefined ? { narration: request.narration } : {}),
    topic: article.title,
    ...(request.language !== undefined ? { language: request.language } : {}),
    ...(request.previousSubject !== undefined ? { previous: request.previousSubject } : {}),
    ...(request.avoidSubjects !== undefined ? { avoid: request.avoidSubjects } : {}),
    seed: request.sceneIndex,
  }).name;
  const queries = [
    ...new Set([subject && !article.title.toLowerCase().includes(subject) ? `${subject} ${article.title}` : '', article.title]),
  ].filter(Boolean);
  // pageimages names the file with underscores; Commons titles have spaces.
  const lead = article.leadImage?.replaceAll('_', ' ');
  // A regenerated scene moves on from the pictures it showed (their subjects are what "Regenerate" avoids).
  const avoidFiles = new Set([...usedFiles, ...(request.avoidSubjects ?? []).filter((name) => name.startsWith('File:'))]);
  const found = await budget.spend(
    'pictures',
    (lookup) =>
      research.findPicture(
        {
          queries,
          ...(lead && !usedFiles.has(`File:${lead}`) ? { leadImage: lead } : {}),
          width: request.width,
          height: request.height,
          avoidFiles,
        },
        lookup,
      ),
    signal,
  );
  if (!found) return null;
  writeFileSync(request.outputPath, found.bytes);
  usedFiles.add(found.fileName);
  return { imagePath: request.outputPath, subject: subject ?? fileTitle(found.fileName), attribution: found.attribution };
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
