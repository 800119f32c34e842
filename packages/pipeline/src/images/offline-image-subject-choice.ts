import { findMotif, motifSpec, type Motif } from './offline-image-motifs.js';
import { findSubjects, relatedSubjects, type Subject } from './offline-image-subjects.js';

/**
 * What one scene's picture shows: the main subject, up to two smaller related ones, and (for the
 * landscape-like subjects the painter draws itself) the hand-drawn motif.
 */
export interface SceneSubjects {
  /** The main subject in English ("bicycle"), or null for a bare landscape. */
  name: string | null;
  /** The artwork of the main subject, unless a hand-drawn motif shows it. */
  main: Subject | null;
  /** A hand-drawn subject: the painter's own volcano, river, planet… drawn into the landscape. */
  motif: Motif | null;
  /** The main subject's setting (the sea for a whale), from the hand-drawn vocabulary's table. */
  setting: Motif | null;
  companions: Subject[];
}

export interface SubjectQuery {
  prompt: string;
  narration?: string;
  topic?: string;
  /** The subject of the scene before: shown again only when this scene's own words name it. */
  previous?: string;
  /** Subjects this scene has shown before; "regenerate" moves on to the next best one. */
  avoid?: readonly string[];
  /** Picks among equals, so the same scene always gets the same choice. */
  seed: number;
}

/**
 * Subjects the painter draws better than any artwork: landscapes and sky (a volcano in its
 * mountains, a river through the hills, a planet in the night sky). Animals, objects and the rest
 * come from the artwork set.
 */
const PAINTED: ReadonlySet<Motif> = new Set<Motif>(['volcano', 'mountain', 'river', 'planet', 'moon', 'galaxy', 'sun', 'pyramid', 'city', 'snow']);
/** English artwork names that the painted subjects stand for, so the two are one candidate. */
const PAINTED_NAMES: Partial<Record<Motif, string[]>> = {
  volcano: ['volcano'], mountain: ['mountain', 'snow-capped mountain', 'mount fuji'], planet: ['ringed planet'], moon: ['full moon', 'crescent moon'],
  galaxy: ['milky way'], sun: ['sun'], city: ['cityscape'], snow: ['snowflake'],
};

/** A word of the scene itself that names the subject outright: at least a keyword-strength match. */
const NAMED = 1.2;
/** The topic counts for less than the scene's own words. */
const TOPIC_WEIGHT = 0.5;

interface Candidate {
  name: string;
  subject: Subject | null;
  motif: Motif | null;
  /** From the scene's own narration and prompt. */
  own: number;
  score: number;
}

function candidates(sceneText: string, topic: string): Candidate[] {
  const byName = new Map<string, Candidate>();
  const add = (name: string, subject: Subject | null, motif: Motif | null, own: number, fromTopic: number) => {
    const entry = byName.get(name) ?? { name, subject, motif, own: 0, score: 0 };
    entry.subject ??= subject;
    entry.motif ??= motif;
    entry.own += own;
    entry.score += own + fromTopic * TOPIC_WEIGHT;
    byName.set(name, entry);
  };
  for (const match of findSubjects(sceneText)) add(match.subject.name, match.subject, null, match.score, 0);
  for (const match of findSubjects(topic)) add(match.subject.name, match.subject, null, 0, match.score);
  // The hand-drawn vocabulary knows landscape words the annotations lack (हिमालय, the Ganges).
  for (const [text, own] of [[sceneText, true], [topic, false]] as const) {
    const motif = findMotif(text);
    if (!motif || !PAINTED.has(motif)) continue;
    const name = PAINTED_NAMES[motif]?.find((candidate) => byName.has(candidate)) ?? PAINTED_NAMES[motif]?.[0] ?? motif;
    add(name, null, motif, own ? 2.5 : 0, own ? 0 : 2.5);
  }
  // A painted subject is drawn by the painter even when the artwork set found it too.
  for (const entry of byName.values()) {
    if (!entry.motif) {
      const painted = [...PAINTED].find((motif) => PAINTED_NAMES[motif]?.includes(entry.name));
      if (painted) entry.motif = painted;
    }
  }
  return [...byName.values()].sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

/** The hand-drawn vocabulary's setting for an artwork: a whale's sea, a camel's desert. */
function settingOf(subject: Subject): Motif | null {
  return findMotif(subject.name) ?? findMotif(subject.tags.join(' '));
}

function pick<T>(list: readonly T[], seed: number): T | undefined {
  return list.length === 0 ? undefined : list[Math.abs(Math.floor(seed)) % list.length];
}

/**
 * The subjects of one scene. Its own narration and prompt come first, then the topic. The scene
 * before's subject is passed over unless this scene's words name it; with nothing else named, a
 * subject related to the topic's takes its place, so consecutive scenes differ.
 */
export function chooseSceneSubjects(query: SubjectQuery): SceneSubjects {
  const sceneText = [query.prompt, query.narration ?? ''].join('\n');
  const topic = query.topic ?? '';
  const avoid = new Set(query.avoid ?? []);
  const all = candidates(sceneText, topic);
  let ranked = all.filter((candidate) => !avoid.has(candidate.name));
  if (query.previous && ranked[0]?.name === query.previous && ranked[0].own < NAMED) {
    const [repeat, ...rest] = ranked;
    ranked = [...rest, repeat!];
  }
  let main: Candidate | undefined = ranked[0];
  if (main && (main.name === query.previous || avoid.has(main.name)) && main.own < NAMED) main = undefined;
  if (!main) {
    // Nothing new is named: something that belongs with the topic's subject instead.
    const anchor = all.find((candidate) => candidate.subject)?.subject;
    const related = anchor ? relatedSubjects(anchor, 8).filter((subject) => subject.name !== query.previous && !avoid.has(subject.name)) : [];
    const subject = pick(related, query.seed);
    if (subject) main = { name: subject.name, subject, motif: null, own: 0, score: 0 };
    // Every choice has been shown: start over from the best one rather than show nothing.
    else main = all.find((candidate) => candidate.name !== query.previous) ?? all[0];
  }
  if (!main) return { name: null, main: null, motif: null, setting: null, companions: [] };
  const companions: Subject[] = [];
  for (const candidate of ranked) {
    if (companions.length === 2) break;
    if (candidate !== main && candidate.subject && !candidate.motif && candidate.score >= 0.8 * TOPIC_WEIGHT) companions.push(candidate.subject);
  }
  if (companions.length < 2 && main.subject) {
    const related = relatedSubjects(main.subject, 6).filter((subject) => !companions.includes(subject) && subject.name !== main.name);
    const extra = pick(related, query.seed + 1);
    if (extra) companions.push(extra);
  }
  const setting = main.motif ?? (main.subject ? settingOf(main.subject) : null);
  return {
    name: main.name,
    main: main.motif ? null : main.subject,
    motif: main.motif,
    setting: setting && motifSpec(setting).setting ? setting : null,
    companions,
  };
}
