/**
 * What `npm run bench:research` measures, shared with the test that holds the result: each held-out
 * topic of bench/research-articles told from its article as a researched video tells it (the
 * extract as the Wikipedia client keeps it, the topic the creator typed, the article's title), at
 * the word budget of a 30 s and a 60 s video; how many of the topic's key facts (written down with
 * the articles, before the telling was tuned) the narration says, and how many scene changes fall
 * inside a sentence. Beside it the lead baseline: the article's first 90 words, in as many scenes.
 */
import { readFileSync } from 'node:fs';
import type { Story } from '../src/providers/types.js';
import { articleText } from '../src/research/wikimedia-client.js';
import { SCENE_GAP_SECONDS } from '../src/runner/narration.js';
import { tellSource } from '../src/story/source-story.js';
import { isSpaceless } from '../src/story/source-text.js';
import { planStory, sceneCountFor } from '../src/story/story-budget.js';

const ARTICLES = new URL('./research-articles/', import.meta.url);
/** The offline voice's words a minute, as the pipeline plans a story for it. */
const WORDS_PER_MINUTE = 178;
/** The lead baseline: what reading the article's opening for about 30 s says. */
export const LEAD_WORDS = 90;

export interface KeyFact {
  says: string;
  /** Every one must be in the narration: a word, or a phrase of words in a row, each matching a word it starts. */
  words: string[];
}

export interface ResearchTopic {
  slug: string;
  language: string;
  title: string;
  topic: string;
  facts: KeyFact[];
  /** The article as the Wikipedia client keeps its extract. */
  text: string;
}

/** The held-out topics, each article as the Wikipedia client keeps its extract (`articleText`: section headings as lines of their own). */
export function researchTopics(): ResearchTopic[] {
  const { topics } = JSON.parse(readFileSync(new URL('topics.json', ARTICLES), 'utf8')) as {
    topics: Array<Omit<ResearchTopic, 'text'>>;
  };
  return topics.map((topic) => {
    const extract = readFileSync(new URL(`${topic.slug}.txt`, ARTICLES), 'utf8');
    return { ...topic, text: articleText(extract) };
  });
}

/** The scenes and words a video of this length is planned with (offline voice, nominal rate). */
export function researchBudget(durationSeconds: number, language: string): { sceneCount: number; targetWords: number } {
  const sceneCount = sceneCountFor(durationSeconds);
  const { targetWords } = planStory(durationSeconds - SCENE_GAP_SECONDS * (sceneCount - 1), WORDS_PER_MINUTE, language);
  return { sceneCount, targetWords };
}

/** The story a researched video of this length tells of the topic's article. */
export function tellTopic(topic: ResearchTopic, durationSeconds: number): Story {
  const { sceneCount, targetWords } = researchBudget(durationSeconds, topic.language);
  return tellSource(
    {
      topic: topic.topic,
      style: 'educational',
      language: topic.language,
      durationSeconds,
      visualStyle: 'cinematic',
      customPrompt: '',
      sceneCount,
      targetWords,
    },
    { kind: 'article', text: topic.text, title: topic.title, language: topic.language },
  );
}

/** Lower case without accents, as words: "Réfractée" and "refractee" are one. */
export const tokens = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** True when the narration says every word (or phrase) of the fact. */
export function saysFact(narration: string, fact: KeyFact): boolean {
  const said = tokens(narration);
  return fact.words.every((entry) => {
    const phrase = tokens(entry);
    return said.some((_word, at) => phrase.every((part, offset) => said[at + offset]?.startsWith(part) ?? false));
  });
}

const ENDS_SENTENCE = /[.!?。！？।…]["'”’»」』)）]*$/u;

/** Scene changes inside a sentence: a scene whose narration does not end a sentence, before another. */
export function midSentenceCuts(scenes: readonly string[]): number {
  return scenes.slice(0, -1).filter((scene) => !ENDS_SENTENCE.test(scene.trim())).length;
}

/** The article's first LEAD_WORDS words, split into the video's scenes by words as evenly as they go. */
export function leadBaseline(topic: ResearchTopic, durationSeconds: number): string[] {
  const words = topic.text.split(/\s+/u).filter(Boolean).slice(0, LEAD_WORDS);
  const { sceneCount } = researchBudget(durationSeconds, topic.language);
  const scenes: string[] = [];
  for (let index = 0; index < sceneCount; index++) {
    const piece = words.slice(Math.round((index * words.length) / sceneCount), Math.round(((index + 1) * words.length) / sceneCount));
    if (piece.length) scenes.push(piece.join(' '));
  }
  return scenes;
}

export interface TopicResult {
  slug: string;
  language: string;
  facts: number;
  narration: { found: number; cuts: number; words: number; scenes: number; missed: string[] };
  lead: { found: number; cuts: number };
  story: Story;
}

export function evaluateTopic(topic: ResearchTopic, durationSeconds: number): TopicResult {
  const story = tellTopic(topic, durationSeconds);
  const scenes = story.scenes.map((scene) => scene.narration);
  const narration = scenes.join(isSpaceless(topic.language) ? '' : ' ');
  const lead = leadBaseline(topic, durationSeconds);
  const leadText = lead.join(' ');
  // The lead ends where its 90th word falls: mid-sentence unless that word ends one.
  const leadCuts = midSentenceCuts(lead) + (ENDS_SENTENCE.test(leadText) ? 0 : 1);
  return {
    slug: topic.slug,
    language: topic.language,
    facts: topic.facts.length,
    narration: {
      found: topic.facts.filter((fact) => saysFact(narration, fact)).length,
      cuts: midSentenceCuts(scenes),
      words: narration.split(/\s+/u).filter(Boolean).length,
      scenes: scenes.length,
      missed: topic.facts.filter((fact) => !saysFact(narration, fact)).map((fact) => fact.says),
    },
    lead: { found: topic.facts.filter((fact) => saysFact(leadText, fact)).length, cuts: leadCuts },
    story,
  };
}

export function evaluateResearch(durationSeconds: number): TopicResult[] {
  return researchTopics().map((topic) => evaluateTopic(topic, durationSeconds));
}
