import { STORY_STYLES, VIDEO_LANGUAGES, type StoryStyle, type VideoLanguage } from '@reelsmith/contracts';
import { ProviderError, throwIfAborted } from '../errors.js';
import type { Scene, Story, StoryProvider, StoryRequest } from '../providers/types.js';
import { englishTopicForm, englishTopicPhrase, fillSlots, quotedTopic, topicInSentence } from './slot-contractions.js';
import { countNarrationWords, storyWordCap, storyWordsAsEdited } from './story-budget.js';
import { languageDisplayName, needsTranslation } from './source-language.js';
import { tellSourceApart } from './told-apart.js';
import { createRandom } from '../seeded-random.js';
import { headlineCase } from './headline-case.js';
import { topicHashtags, topicTerms } from './post-kit.js';
import { loadImagePromptTemplates, loadLanguageTemplates, type LanguageTemplates, type StyleVoice } from './offline-story-templates.js';

/**
 * The offline writer composes narration from hand-written sentence templates (data/story-templates),
 * so Reelsmith can make a video with no API key and no network.
 *
 * customPrompt rule: the prompt is split into clauses at line breaks and . ; ! ?
 *  - a clause starting with a focus cue ("focus on X", "talk about X", "mention X", "include X",
 *    "highlight X", "explain X", ... or the language's own cues such as "céntrate en X") makes X
 *    the subject of its own development scene;
 *  - a clause starting with a tone cue ("make it X", "keep it X", "tone: X", "sound X", ... or the
 *    language's own) adds a sentence carrying X as the telling's tone, like the custom style text;
 *  - any other clause is treated as a subject to cover, like a focus cue.
 * At most three clauses of each kind are used.
 */

type ArcRole = 'hook' | 'context' | 'development' | 'turn' | 'closing';

/** How each scene's picture frames its subject, per place in the story: framings only, never another subject. */
const SCENE_FRAMINGS: Record<ArcRole, readonly string[]> = {
  hook: ['a striking first view of', 'an establishing view of', 'a bold close view of'],
  context: ['the setting of', 'the surroundings of', 'an early view of'],
  development: [
    'a close-up detail of',
    'a side view of',
    'a view from above of',
    'the inner workings of',
    'a detailed study of',
    'a low-angle view of',
    'a wide view of',
    'the texture and shape of',
    'a step-by-step view of',
    'a cross-section of',
    'a quiet moment with',
    'a view in motion of',
  ],
  turn: ['a surprising angle on', 'a dramatic view of', 'an unexpected side of'],
  closing: ['a calm final view of', 'a wide closing shot of', 'a lasting image of'],
};

const ENGLISH_FOCUS_CUES = [
  'focus on',
  'focusing on',
  'talk about',
  'tell about',
  'write about',
  'mention',
  'include',
  'highlight',
  'emphasize',
  'emphasise',
  'cover',
  'explain',
  'describe',
  'show',
  'about',
];
const ENGLISH_TONE_CUES = ['make it', 'keep it', 'keep the tone', 'tone:', 'tone', 'sound', 'be more', 'be'];
const MAX_DIRECTIVES = 3;

export interface PromptDirectives {
  focuses: string[];
  tones: string[];
}

function stripCue(clause: string, cues: readonly string[]): string | undefined {
  const lower = clause.toLocaleLowerCase();
  // Longest cue first so "keep the tone" wins over "keep it"/"tone".
  for (const cue of [...cues].sort((a, b) => b.length - a.length)) {
    const lowerCue = cue.toLocaleLowerCase();
    if (
      lower.startsWith(lowerCue) &&
      (lower.length === lowerCue.length || /[\s:]/u.test(lower[lowerCue.length] ?? ' ') || /[:]$/.test(lowerCue))
    ) {
      const rest = clause
        .slice(cue.length)
        .replace(/^[\s:,-]+/u, '')
        .trim();
      return rest.length > 0 ? rest : undefined;
    }
  }
  return undefined;
}

/** Applies the customPrompt rule documented at the top of this file. */
export function parseCustomPrompt(customPrompt: string, templates?: LanguageTemplates): PromptDirectives {
  const focusCues = [...ENGLISH_FOCUS_CUES, ...(templates?.focusCues ?? [])];
  const toneCues = [...ENGLISH_TONE_CUES, ...(templates?.toneCues ?? [])];
  const directives: PromptDirectives = { focuses: [], tones: [] };
  const clauses = customPrompt
    .split(/[\n.;!?。！？।]+/u)
    .map((clause) => clause.replace(/^\s*(please|pls|also|and)\b[\s,]*/iu, '').trim())
    .filter((clause) => /[\p{L}\p{N}]/u.test(clause));
  for (const clause of clauses) {
    const tone = stripCue(clause, toneCues);
    if (tone !== undefined) {
      if (directives.tones.length < MAX_DIRECTIVES) directives.tones.push(tone);
      continue;
    }
    const focus = stripCue(clause, focusCues) ?? clause;
    if (directives.focuses.length < MAX_DIRECTIVES) directives.focuses.push(focus);
  }
  return directives;
}

// ---------- determinism ----------

/** FNV-1a, 32 bit: a stable seed from the request. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Hands out each sentence at most once per story. */
class SentencePool {
  private readonly remaining: string[];
  constructor(sentences: readonly string[], random: () => number) {
    this.remaining = shuffled(sentences, random);
  }
  get size(): number {
    return this.remaining.length;
  }
  take(): string | undefined {
    return this.remaining.shift();
  }
  /** Swaps `current` for the shortest remaining sentence if that one is shorter. */
  swapForShorter(current: string, measure: (text: string) => number): string | undefined {
    let bestIndex = -1;
    let bestLength = measure(current);
    this.remaining.forEach((text, index) => {
      const length = measure(text);
      if (length < bestLength) {
        bestLength = length;
        bestIndex = index;
      }
    });
    if (bestIndex < 0) return undefined;
    const [shorter] = this.remaining.splice(bestIndex, 1, current);
    return shorter;
  }
  /** Takes the sentence whose length best fits `wanted`, so the total lands near the budget. */
  takeClosest(wanted: number, measure: (text: string) => number): string | undefined {
    if (this.remaining.length === 0) return undefined;
    let bestIndex = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    // Only the first few candidates are considered, so the shuffle still decides what is said.
    this.remaining.slice(0, 4).forEach((text, index) => {
      const distance = Math.abs(measure(text) - wanted);
      if (distance < bestDistance) {
        bestDistance = distance;
        bestIndex = index;
      }
    });
    return this.remaining.splice(bestIndex, 1)[0];
  }
}

// ---------- composition ----------

function arcRoles(sceneCount: number): ArcRole[] {
  if (sceneCount <= 1) return ['hook'];
  if (sceneCount === 2) return ['hook', 'closing'];
  if (sceneCount === 3) return ['hook', 'development', 'closing'];
  if (sceneCount === 4) return ['hook', 'context', 'turn', 'closing'];
  return ['hook', 'context', ...Array<ArcRole>(sceneCount - 4).fill('development'), 'turn', 'closing'];
}

function resolveLanguage(language: string): VideoLanguage {
  const code = language.toLowerCase().slice(0, 2);
  return (VIDEO_LANGUAGES as readonly string[]).includes(code) ? (code as VideoLanguage) : 'en';
}

function resolveStyle(style: string): { key: StoryStyle; customTone: string | undefined } {
  const normalised = style.trim().toLowerCase();
  const known = STORY_STYLES.find((candidate) => candidate === normalised);
  if (known && known !== 'custom') return { key: known, customTone: undefined };
  const customTone = known === 'custom' || normalised.length === 0 ? undefined : style.trim();
  return { key: 'custom', customTone };
}

const CAPITALISED_LANGUAGES = new Set<VideoLanguage>(['en', 'de', 'es', 'fr', 'pt']);

/**
 * Slots values into a template. The topic is used exactly as typed, except that in languages
 * written with capitals a sentence that opens with it starts with a capital letter.
 */
function fill(template: string, slots: Record<string, string>, language: VideoLanguage): string {
  const text = fillSlots(template, slots, language);
  if (!CAPITALISED_LANGUAGES.has(language)) return text;
  return text.replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_whole, before: string, first: string) => before + first.toLocaleUpperCase());
}

interface SceneDraft {
  role: ArcRole;
  focus: string | undefined;
  /** Sentences said before the scene's main sentence. */
  leadIns: string[];
  main: string[];
  /** Sentences said after the main sentence. */
  tail: string[];
  /** Where the main sentence came from (as a template), so it can be swapped for a shorter one. */
  mainSource?: { pool: SentencePool; template: string; extra: Record<string, string> };
}

function draftText(draft: SceneDraft, joiner: string): string {
  return [...draft.leadIns, ...draft.main, ...draft.tail].join(joiner);
}

/**
 * Narration length in budget words. With `topicWords` (what the voice takes to say the topic), each
 * mention of the topic counts that much rather than its letters: a topic in another script can take
 * a voice many times longer than its letters suggest (the ja voice spells Latin words out letter by
 * letter, Latin voices name each kanji).
 */
function narrationMeasure(language: string, topicForms: (string | undefined)[], topicWords: number | undefined): (text: string) => number {
  const forms = topicForms.filter((form): form is string => form !== undefined && form.trim().length > 0);
  if (topicWords === undefined || !(topicWords > 0) || forms.length === 0) return (text) => countNarrationWords(text, language);
  // Longest first, so a form that contains another is counted once; a sentence may capitalise its first letter.
  const escaped = [...forms].sort((a, b) => b.length - a.length).map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const mention = new RegExp(escaped.join('|'), 'giu');
  return (text) => {
    const mentions = text.match(mention)?.length ?? 0;
    return countNarrationWords(text.replace(mention, ' '), language) + mentions * topicWords;
  };
}

/**
 * The scenes whose main sentence names the topic: the opening, the closing and about one scene in
 * three between (a story that says "the question of how honeybees talk by dancing" in every scene
 * sounds like filler); the others carry the story with sentences that need no topic. When saying
 * it that often would take more than half the budget (a long title in a script the voice only
 * spells out or names letter by letter), it is said in as many scenes as half the budget affords,
 * the opening first, then spread over the rest; a topic the voice cannot say within half the video
 * is not said at all: the title and the captions show it, and the video keeps its length.
 */
export function scenesSayingTopic(sceneCount: number, targetWords: number, topicWords: number | undefined): Set<number> {
  const count = Math.max(1, Math.round(sceneCount));
  const wanted = count <= 2 ? 1 : Math.max(2, Math.round(count / 3));
  const affordable = topicWords === undefined || !(topicWords > 0) ? wanted : Math.floor((Math.max(1, targetWords) * 0.5) / topicWords);
  const chosen = new Set<number>();
  if (affordable >= wanted) {
    // The opening and the closing, and the rest spread evenly between them.
    for (let slot = 0; slot < wanted; slot++) chosen.add(wanted === 1 ? 0 : Math.round((slot * (count - 1)) / (wanted - 1)));
    return chosen;
  }
  for (let slot = 0; slot < affordable; slot++) chosen.add(Math.round((slot * count) / affordable));
  return chosen;
}

/**
 * Makes sure the story is within the storyboard editor's cap, counted as the editor counts: the
 * longest scene's added sentences go first (its last filler, then its lead-in), then its main
 * sentence is swapped for a shorter one; only a topic too long for the video to say at all is cut
 * at a word (the title and the captions still show it).
 */
function fitToCap(drafts: SceneDraft[], joiner: string, cap: number, swapShorter: (draft: SceneDraft) => boolean): void {
  const wordsOf = (draft: SceneDraft) => storyWordsAsEdited([draftText(draft, joiner)]);
  for (let guard = 0; guard < 400; guard++) {
    const total = storyWordsAsEdited(drafts.map((draft) => draftText(draft, joiner)));
    if (total <= cap) return;
    const longestFirst = [...drafts].sort((a, b) => wordsOf(b) - wordsOf(a));
    const withExtra = longestFirst.find((draft) => draft.tail.length > 0 || draft.leadIns.length > 0);
    if (withExtra) {
      if (withExtra.tail.length > 0) withExtra.tail.pop();
      else withExtra.leadIns.shift();
      continue;
    }
    if (longestFirst.some((draft) => swapShorter(draft))) continue;
    const longest = longestFirst[0];
    if (!longest) return;
    const text = draftText(longest, joiner);
    const spaced = /\s/u.test(text.trim());
    const cut = spaced ? text.trim().split(/\s+/u).slice(0, -1).join(' ') : Array.from(text).slice(0, -3).join('');
    if (cut.length === 0 || cut === text) return;
    longest.leadIns = [];
    longest.tail = [];
    longest.main = [cut];
    longest.mainSource = undefined;
  }
}

export function composeStory(request: StoryRequest): Story {
  const language = resolveLanguage(request.language);
  const templates = loadLanguageTemplates(language);
  const images = loadImagePromptTemplates();
  const { key: styleKey, customTone } = resolveStyle(request.style);
  const voice: StyleVoice = templates.styles[styleKey];
  const topic = request.topic.trim().replace(/\s+/g, ' ');
  const directives = parseCustomPrompt(request.customPrompt ?? '', templates);
  const tones = [...(customTone ? [customTone] : []), ...directives.tones];
  const seed = hashString(
    JSON.stringify([
      topic,
      request.style,
      language,
      request.durationSeconds,
      request.visualStyle,
      request.customPrompt,
      request.sceneCount,
      request.targetWords,
    ]),
  );
  const random = createRandom(seed).next;
  // Inside a sentence the topic loses a closing full stop or question mark. In English a topic typed
  // as a sentence or a yes/no question is always told as a noun phrase ("the story that …", 'the
  // question "Is …?"'); one typed as a wh-question reads as it is where
  // it is the object ("to understand why …,") and as "the question of why …" where the sentence goes
  // on after it ("… will never look the same again").
  const bare = topic.replace(/\s*[.!?。？！।]+$/u, '') || topic;
  const form = language === 'en' ? englishTopicForm(topic) : 'phrase';
  const phrase = form === 'phrase' ? null : englishTopicPhrase(topic);
  // Other languages quote a question or a sentence, which then reads as one noun anywhere.
  const quoted = quotedTopic(topic, language);
  const slots: Record<string, string> = quoted
    ? { topic: quoted }
    : (form === 'sentence' || form === 'yes-no question') && phrase
      ? { topic: phrase }
      : { topic: topicInSentence(bare, language), ...(phrase ? { topicPhrase: phrase } : {}) };
  const joiner = templates.sentenceJoiner;
  const measure = narrationMeasure(language, [slots.topic, slots.topicPhrase], request.topicWords);

  const pools = {
    openings: new SentencePool(voice.openings, random),
    transitions: new SentencePool(voice.transitions, random),
    devices: new SentencePool(voice.devices, random),
    closings: new SentencePool(voice.closings, random),
    context: new SentencePool(templates.beats.context, random),
    angles: new SentencePool(templates.beats.angles, random),
    development: new SentencePool(templates.beats.development, random),
    turn: new SentencePool(templates.beats.turn, random),
    focus: new SentencePool(templates.focus, random),
    tone: new SentencePool(templates.tone, random),
  };
  const render = (template: string | undefined, extra: Record<string, string> = {}) =>
    template === undefined ? undefined : fill(template, { ...slots, ...extra }, language);

  const roles = arcRoles(Math.max(1, Math.round(request.sceneCount)));
  const focusSceneIndexes = roles
    .map((role, index) => ({ role, index }))
    .filter(({ role }) => role === 'development' || role === 'context' || role === 'turn')
    .sort((a, b) => Number(b.role === 'development') - Number(a.role === 'development'))
    .map(({ index }) => index);
  const drafts: SceneDraft[] = roles.map((role) => ({ role, focus: undefined, leadIns: [], main: [], tail: [] }));
  // The plan may ask for more than the storyboard editor accepts for this length (a fast voice, a
  // re-plan after voicing): the writer aims a little under the editor's cap, and fitToCap below makes sure.
  const cap = storyWordCap(request.durationSeconds);
  const target = Math.max(1, Math.min(request.targetWords, Math.floor(cap * 0.92)));
  const withTopic = scenesSayingTopic(roles.length, target, request.topicWords);
  directives.focuses.forEach((focus, order) => {
    const index = focusSceneIndexes[order] ?? drafts.length - 1;
    const draft = drafts[index];
    if (draft && draft.focus === undefined) draft.focus = focus;
  });

  const share = target / roles.length;
  const measureTemplate = (text: string) => measure(fill(text, slots, language));
  const pick = (pool: SentencePool, budget = share) => render(pool.takeClosest(budget, measureTemplate));
  const pickMain = (draft: SceneDraft, pool: SentencePool, extra: Record<string, string> = {}) => {
    const template = pool.takeClosest(share, (text) => measure(fill(text, { ...slots, ...extra }, language)));
    if (template === undefined) return;
    draft.main.push(fill(template, { ...slots, ...extra }, language));
    draft.mainSource = { pool, template, extra };
  };
  const push = (list: string[], text: string | undefined) => {
    if (text !== undefined) list.push(text);
  };
  for (const [index, draft] of drafts.entries()) {
    // A topic the voice takes long to say is said in as many scenes as the budget affords; the
    // others carry the story with a sentence that needs no topic.
    const topicFree = withTopic.has(index)
      ? undefined
      : [pools.development, pools.devices, pools.transitions].find((pool) => pool.size > 0);
    if (topicFree) pickMain(draft, topicFree);
    else
      switch (draft.role) {
        case 'hook':
          pickMain(draft, pools.openings);
          if (drafts.length === 1) push(draft.tail, pick(pools.closings));
          break;
        case 'context':
          pickMain(draft, pools.context);
          break;
        case 'development':
          // Every scene says something about the topic: its main sentence is an angle on it.
          pickMain(draft, pools.angles);
          break;
        case 'turn':
          push(draft.leadIns, pick(pools.transitions, share / 3));
          pickMain(draft, pools.turn);
          break;
        case 'closing':
          pickMain(draft, pools.closings);
          break;
      }
    if (draft.focus !== undefined) {
      // The creator's subject replaces the generic beat so the scene is really about it.
      draft.main = [];
      draft.mainSource = undefined;
      push(draft.main, render(pools.focus.take(), { focus: draft.focus }));
    }
  }
  // The tone is stated early, where it colours the rest of the telling.
  tones.forEach((tone, order) => {
    const target = drafts[Math.min(order + 1, drafts.length - 1)] ?? drafts[0];
    if (target) push(target.tail, render(pools.tone.take(), { tone }));
  });

  // Fill towards the word budget, always topping up the scene that is furthest behind its share.
  const sceneWords = drafts.map((draft) => measure(draftText(draft, joiner)));
  let total = sceneWords.reduce((sum, words) => sum + words, 0);
  // Filling never names the topic again: only the main sentences of the scenes chosen above do.
  const fillerFor = (role: ArcRole, index: number): SentencePool[] => {
    switch (role) {
      case 'hook':
        return [pools.devices, pools.development];
      case 'context':
        return [pools.development, pools.devices];
      case 'development':
        // Alternate the style's own devices with neutral beats so the style is heard throughout.
        return index % 2 === 1
          ? [pools.devices, pools.development, pools.transitions]
          : [pools.development, pools.devices, pools.transitions];
      case 'turn':
        return [pools.devices, pools.development];
      case 'closing':
        return [pools.devices, pools.development];
    }
  };
  const developmentIndexes = new Set<number>();
  for (let guard = 0; guard < 200 && total < target * 0.97; guard++) {
    let neediest = -1;
    let biggestGap = Number.NEGATIVE_INFINITY;
    sceneWords.forEach((words, index) => {
      const gap = share - words;
      if (gap > biggestGap) {
        biggestGap = gap;
        neediest = index;
      }
    });
    const draft = drafts[neediest];
    if (!draft) break;
    const remaining = target - total;
    const pool = fillerFor(draft.role, neediest).find((candidate) => candidate.size > 0);
    if (!pool) {
      sceneWords[neediest] = Number.POSITIVE_INFINITY;
      if (sceneWords.every((words) => words === Number.POSITIVE_INFINITY)) break;
      continue;
    }
    const sentence = render(pool.takeClosest(Math.min(remaining, Math.max(share - (sceneWords[neediest] ?? 0), 4)), measureTemplate));
    if (sentence === undefined) continue;
    const words = measure(sentence);
    if (total + words > target * 1.06 && total >= target * 0.9) break;
    // Transitions lead into a scene; everything else follows its main sentence.
    if (pool === pools.transitions && draft.leadIns.length === 0 && !developmentIndexes.has(neediest)) {
      draft.leadIns.push(sentence);
      developmentIndexes.add(neediest);
    } else {
      draft.tail.push(sentence);
    }
    sceneWords[neediest] = (sceneWords[neediest] ?? 0) + words;
    total += words;
  }

  // Short budgets (30 s, long-worded languages) can overflow on the required sentences alone:
  // swap the longest scenes' main sentences for shorter ones from the same pool.
  for (let guard = 0; guard < drafts.length * 2 && total > target * 1.08; guard++) {
    const order = drafts
      .map((draft, index) => ({ draft, index }))
      .filter(({ draft }) => draft.mainSource !== undefined)
      .sort((a, b) => (sceneWords[b.index] ?? 0) - (sceneWords[a.index] ?? 0));
    let swapped = false;
    for (const { draft, index } of order) {
      const source = draft.mainSource;
      if (!source) continue;
      const measureSource = (text: string) => measure(fill(text, { ...slots, ...source.extra }, language));
      const shorter = source.pool.swapForShorter(source.template, measureSource);
      if (shorter === undefined) continue;
      draft.main = [fill(shorter, { ...slots, ...source.extra }, language)];
      draft.mainSource = { ...source, template: shorter };
      const words = measure(draftText(draft, joiner));
      total += words - (sceneWords[index] ?? 0);
      sceneWords[index] = words;
      swapped = true;
      break;
    }
    if (!swapped) {
      // Nothing shorter left: drop a scene's lead-in transition instead.
      const withLeadIn = drafts.findIndex((draft) => draft.leadIns.length > 0);
      const draft = drafts[withLeadIn];
      if (!draft) break;
      draft.leadIns = [];
      const words = measure(draftText(draft, joiner));
      total += words - (sceneWords[withLeadIn] ?? 0);
      sceneWords[withLeadIn] = words;
    }
  }

  fitToCap(drafts, joiner, cap, (draft) => {
    const source = draft.mainSource;
    if (!source) return false;
    const shorter = source.pool.swapForShorter(source.template, (text) =>
      storyWordsAsEdited([fill(text, { ...slots, ...source.extra }, language)]),
    );
    if (shorter === undefined) return false;
    draft.main = [fill(shorter, { ...slots, ...source.extra }, language)];
    draft.mainSource = { ...source, template: shorter };
    return true;
  });

  const visualKeywords = images.visualStyles[request.visualStyle] ?? images.visualStyles.cinematic;
  const mood = images.moods[styleKey];
  const toneNote = tones.length > 0 ? `, ${tones.join(', ')} tone` : '';
  // A picture shows what its scene is about, in the scene's own words: the topic's words the scene
  // names (or the creator's focus), framed differently per scene. A scene that carries the story
  // without naming the topic is still about it, so it shows the topic. The painter is never handed
  // another subject (a lighthouse beam, a cottage window) to stand for a topic it knows nothing of.
  const subjectTerms = topicTerms(bare, language);
  const topicSubject = subjectTerms.length > 0 ? subjectTerms.join(' ') : bare;
  const framingPools = Object.fromEntries(
    Object.entries(SCENE_FRAMINGS).map(([role, framings]) => [role, new SentencePool(framings, random)]),
  ) as Record<ArcRole, SentencePool>;
  const scenes: Scene[] = drafts.map((draft, index) => {
    const narration = draftText(draft, joiner);
    const lower = narration.toLocaleLowerCase(language);
    const named = subjectTerms.filter((term) => lower.includes(term.toLocaleLowerCase(language)));
    const subject = draft.focus ?? (named.length > 0 ? named.join(' ') : topicSubject);
    const framing = framingPools[draft.role].take() ?? framingPools.development.take() ?? `view ${index + 1} of`;
    // Image prompts are comma-joined phrases, not sentences: the creator's words keep their case.
    return { narration, imagePrompt: `${framing} ${subject}, ${mood}${toneNote}, ${visualKeywords}` };
  });
  // English titles are in headline case, the topic too (only its all-lower-case words change);
  // the other languages write titles in sentence case, so the topic stays as it was typed.
  // A title goes on after the topic ("…: The Full Story"), so a closing full stop goes.
  const filled = fill(voice.title, { topic: quoted ?? (voice.title.trim().endsWith('{topic}') ? topic : bare) }, language);
  const title = language === 'en' ? headlineCase(filled) : filled;
  // The post's hashtags are the topic's words: the template sentences name nothing a viewer searches for.
  return { title, scenes, post: { title, summary: '', hashtags: topicHashtags(bare, language) } };
}

export function createOfflineStoryProvider(): StoryProvider {
  return {
    name: 'offline',
    async health() {
      try {
        for (const language of VIDEO_LANGUAGES) loadLanguageTemplates(language);
        loadImagePromptTemplates();
        return { name: 'offline', status: 'healthy', details: `Template writer ready for ${VIDEO_LANGUAGES.join(', ')}` };
      } catch (error) {
        return { name: 'offline', status: 'error', details: error instanceof Error ? error.message : String(error) };
      }
    },
    async writeStory(request, signal) {
      throwIfAborted(signal);
      if (!request.source) return composeStory(request);
      // Telling a source in another language means translating it, which needs a story model.
      if (needsTranslation(request.source.language, request.language)) {
        throw new ProviderError(
          sourceLanguageMismatchMessage(request.source.kind, request.source.language!, request.language),
          'offline',
          false,
        );
      }
      return tellSourceApart(request, request.source, 'offline', signal);
    },
  };
}

/** The refusal of a source whose language is not the narration's, with nothing to translate it. */
export function sourceLanguageMismatchMessage(kind: 'script' | 'article', sourceLanguage: string, narrationLanguage: string): string {
  const written = languageDisplayName(sourceLanguage);
  return `This ${kind} is in ${written}; choose ${written} narration, or configure a story model to translate it into ${languageDisplayName(narrationLanguage)}.`;
}
