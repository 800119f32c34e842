import { findMotif, type Motif } from './offline-image-motif-lexicon.js';
import { findSubjects, relatedSubjects, subjectByName, type Subject, type SubjectMatch } from './offline-image-subjects.js';

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
  /** A building the painter draws itself: its lighthouse on the coast, or a tower for a named landmark the artwork lacks. */
  landmark: PaintedLandmark | null;
  companions: Subject[];
}

export type PaintedLandmark = 'lighthouse' | 'tower';

export interface SubjectQuery {
  prompt: string;
  narration?: string;
  topic?: string;
  /** The subject of the scene before: shown again only when this scene's own words name it. */
  previous?: string;
  /** Subjects this scene has shown before; "regenerate" moves on to the next best one. */
  avoid?: readonly string[];
  /** The narration's language (en, hi, de…): Latin-script words are read as English and this language. */
  language?: string;
  /** Picks among equals, so the same scene always gets the same choice. */
  seed: number;
}

/**
 * Subjects the painter draws better than any artwork: landscapes and sky (a volcano in its
 * mountains, a river through the hills, a planet in the night sky). Animals, objects and the rest
 * come from the artwork set.
 */
const PAINTED: ReadonlySet<Motif> = new Set<Motif>(['volcano', 'mountain', 'river', 'planet', 'moon', 'galaxy', 'sun', 'pyramid', 'city']);
/** English artwork names that the painted subjects stand for, so the two are one candidate. */
const PAINTED_NAMES: Partial<Record<Motif, string[]>> = {
  volcano: ['volcano'],
  mountain: ['mountain', 'snow-capped mountain', 'mount fuji'],
  planet: ['ringed planet'],
  moon: ['full moon', 'crescent moon'],
  galaxy: ['milky way'],
  sun: ['sun'],
  city: ['cityscape'],
};

/**
 * Words a prompt uses for the backdrop (the painter's terrain, light, weather and landmarks) and for the look
 * of the picture: they choose the landscape, never the subject ("a cottage window glowing at
 * evening, film grain" is a setting and a style, not a picture of a window or a film).
 */
const BACKDROP_WORDS = new Set([
  'sky',
  'skies',
  'sea',
  'ocean',
  'coast',
  'shore',
  'beach',
  'wave',
  'waves',
  'lake',
  'water',
  'night',
  'starry',
  'star',
  'stars',
  'moonlit',
  'hill',
  'hills',
  'city',
  'skyline',
  'rooftop',
  'rooftops',
  'window',
  'windows',
  'cottage',
  'countryside',
  'village',
  'street',
  'streets',
  'road',
  'path',
  'forest',
  'pine',
  'tree',
  'trees',
  'woods',
  'mountain',
  'mountains',
  'peak',
  'peaks',
  'valley',
  'field',
  'fields',
  'meadow',
  'desert',
  'dune',
  'dunes',
  'storm',
  'lightning',
  'thunder',
  'rain',
  'cloud',
  'clouds',
  'fog',
  'mist',
  'snow',
  'dawn',
  'dusk',
  'sunset',
  'sunrise',
  'sun',
  'golden',
  'hour',
  'evening',
  'morning',
  'twilight',
  'light',
  'lights',
  'beam',
  'glow',
  'glowing',
  'lighthouse',
  'silhouette',
  'figure',
  'lone',
  'horizon',
  'landscape',
  'home',
  'harbour',
  'harbor',
  'port',
  'ship',
  'ships',
  'boat',
  'boats',
  'castle',
  'tower',
  'temple',
  'ruins',
  'church',
  'palace',
  'monument',
  'market',
  'traveler',
  'traveller',
  'explorer',
  'people',
  'crowd',
  'crowded',
  'keeper',
  'rest',
  'flash',
  'lit',
  'cliff',
  'rocky',
  'misty',
  'mood',
  'composition',
  'lighting',
  'look',
  'film',
  'grain',
  'detail',
  'details',
  'cinematic',
  'anamorphic',
  'widescreen',
  'lens',
  'depth',
  'colour',
  'color',
  'colors',
  'colours',
  'grading',
  'palette',
  'illustration',
  'painting',
  'painted',
  'brush',
  'strokes',
  'cartoon',
  'animation',
  'animated',
  'style',
  'photo',
  'photograph',
  'photography',
  'realistic',
  'vibrant',
  'bright',
  'colorful',
  'colourful',
  'dark',
  'horror',
  'high',
  'clean',
  'clear',
  'informative',
  'sharp',
  'focus',
  'render',
  'art',
  'artistic',
  'texture',
  'shot',
  'wide',
  'still',
  'scene',
  'symbol',
  'story',
  'view',
  'glimpse',
  'legacy',
  'side',
]);

/** The prompt without its backdrop and style words; what is left names things. */
function subjectWords(prompt: string): string {
  return prompt.replace(/[\p{L}\p{M}\p{N}'-]+/gu, (word) => (BACKDROP_WORDS.has(word.toLocaleLowerCase()) ? ' ' : word));
}

/** The text without the topic repeated in it: a scene that only echoes the topic names nothing of its own. */
/**
 * A prompt without the topic's own words: a writer that shows the topic in a scene names it by its
 * words ("the surroundings of honeybees dance"), which is the topic, not something the scene calls by
 * name, so the scene may still alternate the topic's subject with related ones. The narration keeps
 * them: a scene that says the topic's subject is about it.
 */
function withoutTopicWords(text: string, topic: string): string {
  const words = new Set(
    topic
      .toLocaleLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => [...word].length >= 3),
  );
  if (words.size === 0) return text;
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => (words.has(word.toLocaleLowerCase()) ? ' ' : word));
}

function withoutTopic(text: string, topic: string): string {
  const needle = topic.trim().toLocaleLowerCase();
  const haystack = text.toLocaleLowerCase();
  // Lower-casing keeps the length of every script we narrate in; where it does not, nothing is cut.
  if ([...needle].length < 2 || haystack.length !== text.length) return text;
  let result = '';
  let from = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, from)) {
    result += `${text.slice(from, at)} `;
    from = at + needle.length;
  }
  return result + text.slice(from);
}

export interface Candidate {
  name: string;
  subject: Subject | null;
  motif: Motif | null;
  landmark?: PaintedLandmark;
  /** Score from the scene's own narration and prompt. */
  own: number;
  /** The scene calls it by its name, not only by one of its keywords. */
  named: boolean;
  /** Score from the topic. */
  topic: number;
}

/**
 * Artwork of one particular place (Tokyo's tower, New York's statue, Mount Fuji): shown only when a
 * text calls it by its name, never for a keyword it shares ("tower", "mountain"), so the Eiffel
 * Tower is never drawn as Tokyo's.
 */
const PLACE_SUBJECTS = new Set([
  'Tokyo tower',
  'Statue of Liberty',
  'mount fuji',
  'map of Japan',
  'Japanese castle',
  'Japanese post office',
]);

/** The painter's lighthouse, in every narration language (the artwork set has none). */
const LIGHTHOUSE =
  /(?<![\p{L}\p{M}])(?:lighthouses?|leuchtt(?:urm|ürme)\p{L}*|faros?|phares?|farol|faróis)(?![\p{L}\p{M}])|प्रकाशस्तंभ|लाइटहाउस|灯台/iu;

/**
 * A named building ("the Eiffel Tower", "Tower Bridge", "la Sagrada Família"): a run of capitalised
 * words that holds a word for a building. Title-cased text ("How Lighthouses Guided Ships") capitalises
 * every word and names nothing by it.
 */
const NAME_RUN = /\p{Lu}[\p{L}'’-]*(?:\s+(?:of|de|du|la|le|des|del|da|do|the|von|van)?\s*\p{Lu}[\p{L}'’-]*)+/gu;
const BUILDING_WORDS =
  /\b(?:tower|towers|bridge|cathedral|church|abbey|castle|palace|temple|monument|fort|fortress|wall|gate|arch|basilica|mosque|tour|torre|turm|catedral|cathédrale|château|castillo|castelo|palacio|palais|templo|ponte|puente|pont)\b/iu;

function capitalisedNames(text: string): string[] {
  const words = text.match(/[\p{L}'’-]+/gu) ?? [];
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word)).length;
  if (words.length > 3 && capitalised / words.length > 0.6) return [];
  return [...text.matchAll(NAME_RUN)].map((match) => match[0].replace(/^(?:The|La|Le|El|Les|Los|Las|A|O|Die|Der|Das)\s+/u, ''));
}

/** A keyword match that is a word of a name ("Tower" of "Eiffel Tower") is a near-name, not the named thing. */
function insideName(via: string, names: readonly string[]): boolean {
  const lower = via.toLocaleLowerCase();
  return names.some((name) => name.includes(' ') && name.toLocaleLowerCase().split(/\s+/u).includes(lower));
}

function candidates(prompt: string, narration: string, topic: string, language?: string): Candidate[] {
  const sceneText = `${prompt}\n${narration}`;
  const byName = new Map<string, Candidate>();
  const add = (name: string, subject: Subject | null, motif: Motif | null, own: number, named: boolean, fromTopic: number) => {
    const entry = byName.get(name) ?? { name, subject, motif, own: 0, named: false, topic: 0 };
    entry.subject ??= subject;
    entry.motif ??= motif;
    entry.own += own;
    entry.named ||= named;
    entry.topic += fromTopic;
    byName.set(name, entry);
  };
  const names = [...capitalisedNames(prompt), ...capitalisedNames(narration), ...capitalisedNames(topic)];
  const fits = (match: SubjectMatch) =>
    (match.named || !PLACE_SUBJECTS.has(match.subject.name)) && (match.named || !insideName(match.via, names));
  // Prompts are mostly written in English: read so first, and in the narration's language only
  // when English finds nothing (English "lit" is no French bed).
  const fromPrompt = findSubjects(prompt, 'en');
  for (const match of fromPrompt.length > 0 || !language ? fromPrompt : findSubjects(prompt, language, { englishToo: false })) {
    if (fits(match)) add(match.subject.name, match.subject, null, match.score, match.named, 0);
  }
  for (const match of findSubjects(narration, language, { englishToo: !language }))
    if (fits(match)) add(match.subject.name, match.subject, null, match.score, match.named, 0);
  for (const match of findSubjects(topic, language)) if (fits(match)) add(match.subject.name, match.subject, null, 0, false, match.score);
  // The hand-drawn vocabulary knows landscape words the annotations lack (हिमालय, the Ganges), and
  // subjects the artwork set has no picture of (a robot: the emoji is only a face).
  // Only a topic's: in running narration the hand-drawn table's loose words ("an idea", "in
  // history") would draw a light bulb or a clock.
  const topicFound = [...byName.values()].some((entry) => entry.topic > 0);
  for (const [text, own] of [
    [sceneText, true],
    [topic, false],
  ] as const) {
    // In "Champ de Mars" or "Rio de Janeiro" the word after "de" only qualifies the name: no planet, no river.
    const motif = findMotif(
      text.replace(NAME_RUN, (name) => (/\s(?:of|de|du|la|le|des|del|da|do|the|von|van)\s/u.test(name) ? ' ' : name)),
    );
    if (!motif || (!PAINTED.has(motif) && (own || topicFound))) continue;
    const name = PAINTED_NAMES[motif]?.find((candidate) => byName.has(candidate)) ?? PAINTED_NAMES[motif]?.[0] ?? motif;
    add(name, subjectByName(name) ?? null, motif, own ? 3 : 0, own, own ? 0 : 3);
  }
  // A painted subject is drawn by the painter even when the artwork set found it too.
  for (const entry of byName.values()) {
    if (!entry.motif) {
      const painted = [...PAINTED].find((motif) => PAINTED_NAMES[motif]?.includes(entry.name));
      if (painted) entry.motif = painted;
    }
  }
  // The painter's own buildings: a lighthouse wherever one is named (it outranks the ships around
  // it, which the artwork has), and a plain tower for a named landmark the artwork has no picture of.
  const landmarkScore = 1 + Math.max(3, ...[...byName.values()].map((entry) => entry.own + entry.topic));
  for (const [text, own] of [
    [sceneText, true],
    [topic, false],
  ] as const) {
    if (LIGHTHOUSE.test(text)) {
      add('lighthouse', null, null, own ? landmarkScore : 0, own, own ? 0 : landmarkScore);
      byName.get('lighthouse')!.landmark = 'lighthouse';
    }
    const building = capitalisedNames(text).some((name) => name.includes(' ') && BUILDING_WORDS.test(name));
    if (building && !byName.has('lighthouse')) {
      add('tower', null, null, own ? landmarkScore : 0, own, own ? 0 : landmarkScore);
      byName.get('tower')!.landmark = 'tower';
    }
  }
  return [...byName.values()];
}

/** The hand-drawn vocabulary's setting for an artwork: a whale's sea, a camel's desert. */
function settingOf(subject: Subject): Motif | null {
  return findMotif(subject.name) ?? findMotif(subject.tags.join(' '));
}

function pick<T>(list: readonly T[], seed: number): T | undefined {
  return list.length === 0 ? undefined : list[Math.abs(Math.floor(seed)) % list.length];
}

const byScore = (score: (candidate: Candidate) => number) => (a: Candidate, b: Candidate) =>
  score(b) - score(a) || (a.subject?.order ?? Infinity) - (b.subject?.order ?? Infinity) || a.name.localeCompare(b.name);

/**
 * The subjects of one scene, best first: what the scene's own words call by name, then what the
 * topic names. A keyword alone in the scene is no subject ("quiet" is not a muted speaker, "idea"
 * not a light bulb).
 */
export function rankSceneSubjects(query: Omit<SubjectQuery, 'previous' | 'avoid' | 'seed'>): Candidate[] {
  const topic = query.topic ?? '';
  const all = candidates(
    subjectWords(withoutTopicWords(withoutTopic(query.prompt, topic), topic)),
    withoutTopic(query.narration ?? '', topic),
    topic,
    query.language,
  );
  const named = all.filter((candidate) => candidate.named).sort(byScore((candidate) => candidate.own + candidate.topic));
  // A topic's weak keyword matches ("dance" in "Why honeybees dance") are not subjects of their own.
  const topicBest = Math.max(0, ...all.map((candidate) => candidate.topic));
  const fromTopic = all
    .filter((candidate) => !candidate.named && candidate.topic > 0 && candidate.topic >= topicBest * 0.5)
    .sort(byScore((candidate) => candidate.topic + candidate.own));
  return literalBodyParts([...named, ...fromTopic]);
}

/** Unicode's emoji subgroups: body parts (👄 👁 🦶), and the people and animals that have them. */
const BODY_PARTS_SUBGROUP = 22;
const CREATURE_SUBGROUPS = new Set([23, 25, 26, 27, 28, 29, 30, 34, 35, 36, 37, 38, 39]);
const isBodyPart = (candidate: Candidate): boolean => candidate.subject?.subgroup === BODY_PARTS_SUBGROUP;
const isCreature = (candidate: Candidate): boolean => candidate.subject !== null && CREATURE_SUBGROUPS.has(candidate.subject.subgroup);

/**
 * A body part is literal beside a person or an animal, or when the topic is about it ("How the
 * brain works"); otherwise it is a figure of speech: "la boca del volcán", "el ojo del huracán",
 * "the foot of the mountain", and a mouth, an eye or a foot drawn beside a volcano, a storm or a
 * mountain says something else. With a creature in the scene, the creature comes before its parts
 * ("an octopus… its large eyes" shows the octopus).
 */
function literalBodyParts(ranked: Candidate[]): Candidate[] {
  const creature = ranked.findIndex(isCreature);
  if (creature === -1) return ranked.filter((candidate) => !isBodyPart(candidate) || candidate.topic > 0);
  const part = ranked.findIndex(isBodyPart);
  if (part === -1 || part > creature) return ranked;
  const reordered = [...ranked];
  const [first] = reordered.splice(creature, 1);
  reordered.splice(part, 0, first!);
  return reordered;
}

/**
 * The subjects of one scene. Its own narration and prompt come first, then the topic. The scene
 * before's subject is passed over unless this scene calls it by name; with nothing else named, a
 * subject related to the topic's takes its place, so consecutive scenes differ. Subjects the scene
 * showed before ("regenerate") are skipped for the next best.
 */
export function chooseSceneSubjects(query: SubjectQuery): SceneSubjects {
  const ranked = rankSceneSubjects(query);
  const avoid = new Set(query.avoid ?? []);
  const allowed = (candidate: Candidate) => !avoid.has(candidate.name) && (candidate.name !== query.previous || candidate.named);
  const painted = (candidate: Candidate) => candidate.motif !== null || candidate.landmark !== undefined;
  let main: Candidate | undefined = ranked.find(allowed);
  if (!main) {
    const anchor = ranked.find((candidate) => candidate.subject || painted(candidate));
    if (anchor && painted(anchor)) {
      // A painted landscape or building is painted anew in each scene; the artwork that merely shares
      // its Unicode group (a tent, a cactus, a beach umbrella beside a volcano) would be a wrong object.
      main = ranked.find((candidate) => !avoid.has(candidate.name) && candidate.name !== query.previous) ?? anchor;
    } else {
      // Nothing new is named: something that belongs with the topic's subject instead.
      const related = anchor?.subject
        ? relatedSubjects(anchor.subject, 8).filter(
            (subject) => subject.name !== query.previous && !avoid.has(subject.name) && !PLACE_SUBJECTS.has(subject.name),
          )
        : [];
      const subject = pick(related, query.seed);
      if (subject) main = { name: subject.name, subject, motif: null, own: 0, named: false, topic: 0 };
      // Every choice has been shown: start over from the best one rather than show nothing.
      else main = ranked.find((candidate) => candidate.name !== query.previous) ?? ranked[0];
    }
  }
  if (!main) return { name: null, main: null, motif: null, setting: null, landmark: null, companions: [] };
  const chosen = main;
  const companions: Subject[] = [];
  for (const candidate of ranked) {
    if (companions.length === 2) break;
    if (candidate !== chosen && candidate.subject && !candidate.motif && (candidate.named || candidate.topic > 0))
      companions.push(candidate.subject);
  }
  // Beside an artwork subject, one of its kind (the bicycle's locomotive); a painted scene keeps to
  // what the words name.
  if (companions.length < 2 && chosen.subject && !painted(chosen)) {
    const related = relatedSubjects(chosen.subject, 6).filter(
      (subject) => !companions.includes(subject) && subject.name !== chosen.name && !PLACE_SUBJECTS.has(subject.name),
    );
    const extra = pick(related, query.seed + 1);
    if (extra) companions.push(extra);
  }
  const setting = chosen.motif ?? (chosen.subject ? settingOf(chosen.subject) : null);
  return {
    name: chosen.name,
    main: chosen.motif || chosen.landmark ? null : chosen.subject,
    motif: chosen.motif,
    setting,
    landmark: chosen.landmark ?? null,
    companions,
  };
}
