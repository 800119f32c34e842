/**
 * What `npm run bench:summary` measures, shared with the test that keeps the result from slipping:
 * each article of bench/summary-articles told offline at a video's word budget, against the
 * article's human-written summary, by ROUGE-1, ROUGE-2 and ROUGE-L (F1, js-rouge, words in lower
 * case), beside two baselines at the same budget: the article's opening sentences (the lead) and
 * the sentences TextRank centrality alone would pick.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { topicFromSource } from '@reelsmith/contracts';
import { l as rougeL, n as rougeN } from 'js-rouge';
import { SCENE_GAP_SECONDS } from '../src/runner/narration.js';
import { chooseSentences, rankSentences, sentenceLayout, type SummaryCandidate } from '../src/story/extractive-summary.js';
import { tellSource } from '../src/story/source-story.js';
import { splitSentences, trimSentence } from '../src/story/source-text.js';
import { countNarrationWords, planStory, sceneCountFor } from '../src/story/story-budget.js';

const ARTICLES = new URL('./summary-articles/', import.meta.url);
const LANGUAGE = 'en';
/** The offline voice's words a minute, as the pipeline plans a story for it. */
const WORDS_PER_MINUTE = 178;

export interface SummaryArticle {
  slug: string;
  text: string;
  reference: string;
}

export function summaryArticles(): SummaryArticle[] {
  return readdirSync(ARTICLES)
    .filter((name) => name.endsWith('.txt') && !name.endsWith('.summary.txt'))
    .sort()
    .map((name) => {
      const slug = name.slice(0, -'.txt'.length);
      return {
        slug,
        text: readFileSync(new URL(name, ARTICLES), 'utf8'),
        reference: readFileSync(new URL(`${slug}.summary.txt`, ARTICLES), 'utf8').trim(),
      };
    });
}

export type SummaryMethod = 'narration' | 'lead' | 'centrality';
export const SUMMARY_METHODS: readonly SummaryMethod[] = ['narration', 'lead', 'centrality'];

/** The words a video of this length tells, as the pipeline plans them. */
export function wordBudget(durationSeconds: number): { sceneCount: number; targetWords: number } {
  const sceneCount = sceneCountFor(durationSeconds);
  const { targetWords } = planStory(durationSeconds - SCENE_GAP_SECONDS * (sceneCount - 1), WORDS_PER_MINUTE, LANGUAGE);
  return { sceneCount, targetWords };
}

function candidatesOf(text: string): SummaryCandidate[] {
  const sentences = splitSentences(text, LANGUAGE);
  const layout = sentenceLayout(text, sentences);
  return sentences
    .filter((sentence) => !sentence.fragment)
    .map((sentence) => {
      const narration = trimSentence(sentence.text, LANGUAGE);
      return {
        sentence,
        narration,
        words: countNarrationWords(narration, LANGUAGE),
        paragraphStart: layout[sentence.index]!.paragraphStart,
      };
    });
}

/** The text each method tells of an article in a video of this length. */
export function summarise(article: SummaryArticle, method: SummaryMethod, durationSeconds: number): string {
  const { sceneCount, targetWords } = wordBudget(durationSeconds);
  if (method === 'narration') {
    // As a creator's pasted article reaches the story step: no title, so the topic stands in.
    const source = { kind: 'article' as const, text: article.text };
    const story = tellSource(
      {
        topic: topicFromSource(source),
        style: 'educational',
        language: LANGUAGE,
        durationSeconds,
        visualStyle: 'cinematic',
        customPrompt: '',
        sceneCount,
        targetWords,
      },
      source,
    );
    return story.scenes.map((scene) => scene.narration).join(' ');
  }
  const candidates = candidatesOf(article.text);
  if (method === 'lead') {
    const lead: string[] = [];
    let words = 0;
    for (const candidate of candidates) {
      if (words + candidate.words > targetWords) break;
      lead.push(candidate.narration);
      words += candidate.words;
    }
    return lead.join(' ');
  }
  const scores = rankSentences(splitSentences(article.text, LANGUAGE), LANGUAGE);
  return chooseSentences(candidates, scores, targetWords, LANGUAGE)
    .chosen.map((candidate) => candidate.narration)
    .join(' ');
}

export interface RougeScores {
  rouge1: number;
  rouge2: number;
  rougeL: number;
}

const tokens = (text: string): string[] => text.toLocaleLowerCase('en').match(/[\p{L}\p{N}]+/gu) ?? [];
const sentencesOf = (text: string): string[] => splitSentences(text, LANGUAGE).map((sentence) => sentence.text);

export function rouge(candidate: string, reference: string): RougeScores {
  const options = { tokenizer: tokens, caseSensitive: false };
  return {
    rouge1: rougeN(candidate, reference, { ...options, n: 1 }),
    rouge2: rougeN(candidate, reference, { ...options, n: 2 }),
    rougeL: rougeL(candidate, reference, { ...options, segmenter: sentencesOf }),
  };
}

export interface SummaryEvaluation {
  perArticle: Array<{ slug: string; scores: Record<SummaryMethod, RougeScores>; words: Record<SummaryMethod, number> }>;
  mean: Record<SummaryMethod, RougeScores>;
}

export function evaluateSummaries(durationSeconds: number): SummaryEvaluation {
  const perArticle = summaryArticles().map((article) => {
    const scores = {} as Record<SummaryMethod, RougeScores>;
    const words = {} as Record<SummaryMethod, number>;
    for (const method of SUMMARY_METHODS) {
      const told = summarise(article, method, durationSeconds);
      scores[method] = rouge(told, article.reference);
      words[method] = countNarrationWords(told, LANGUAGE);
    }
    return { slug: article.slug, scores, words };
  });
  const mean = {} as Record<SummaryMethod, RougeScores>;
  for (const method of SUMMARY_METHODS) {
    const average = (key: keyof RougeScores) => perArticle.reduce((sum, row) => sum + row.scores[method][key], 0) / perArticle.length;
    mean[method] = { rouge1: average('rouge1'), rouge2: average('rouge2'), rougeL: average('rougeL') };
  }
  return { perArticle, mean };
}
