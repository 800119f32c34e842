import type { VisualStyle } from '@reelsmith/contracts';
import { desaturate, hsl, luminance, mix, scale, type Random, type Rgb } from './offline-image-color.js';
import { findMotif, motifSpec, type Motif } from './offline-image-motif-lexicon.js';
import type { Terrain, TimeOfDay } from './offline-image-setting.js';
import type { SceneSubjects } from './offline-image-subject-choice.js';

export type Focal = 'none' | 'figure' | 'lighthouse' | 'tree' | 'cabin' | 'tower';

export interface Palette {
  skyTop: Rgb;
  skyMid: Rgb;
  skyHorizon: Rgb;
  /** Colour of the sun or moon disc. */
  disc: Rgb;
  glow: Rgb;
  /** Nearest silhouette; farther layers blend from it toward `haze`. */
  near: Rgb;
  haze: Rgb;
  fog: Rgb;
  cloud: Rgb;
  rim: Rgb;
  water: Rgb;
  window: Rgb;
  outline: Rgb;
}

export interface ScenePlan {
  style: VisualStyle;
  terrain: Terrain;
  time: TimeOfDay;
  focal: Focal;
  /** A hand-drawn subject (volcano, river, planet…) painted into the landscape; null for none. */
  motif: Motif | null;
  /** What the picture shows, chosen for this scene; its artwork is drawn over the landscape. */
  subjects: SceneSubjects | null;
  /** Horizon height as a share of the picture height. */
  horizon: number;
  /** Sun or moon centre as shares of width and height. */
  sunX: number;
  sunY: number;
  palette: Palette;
}

/** Words in a scene prompt that pick what the picture shows; the first table with most hits wins. */
const TERRAIN_WORDS: Record<Terrain, string[]> = {
  sea: [
    'sea',
    'ocean',
    'shore',
    'beach',
    'coast',
    'coastal',
    'wave',
    'waves',
    'harbor',
    'harbour',
    'port',
    'ship',
    'ships',
    'boat',
    'sail',
    'sailor',
    'island',
    'lighthouse',
    'lake',
    'river',
    'water',
    'bay',
    'tide',
    'pirate',
    'fishing',
    'voyage',
    'underwater',
    'cruise',
  ],
  city: [
    'city',
    'cities',
    'street',
    'streets',
    'town',
    'building',
    'buildings',
    'skyline',
    'square',
    'urban',
    'market',
    'office',
    'factory',
    'skyscraper',
    'downtown',
    'crowd',
    'crowded',
    'neon',
    'station',
    'metropolis',
    'traffic',
    'alley',
    'rooftop',
    'apartment',
    'company',
    'business',
    'technology',
    'startup',
    'bank',
    'economy',
  ],
  forest: [
    'forest',
    'forests',
    'wood',
    'woods',
    'woodland',
    'tree',
    'trees',
    'jungle',
    'grove',
    'park',
    'garden',
    'rainforest',
    'pine',
    'leaves',
    'wilderness',
  ],
  mountains: [
    'mountain',
    'mountains',
    'peak',
    'peaks',
    'summit',
    'cliff',
    'cliffs',
    'alps',
    'valley',
    'glacier',
    'volcano',
    'canyon',
    'ridge',
    'himalaya',
    'everest',
    'snow',
    'climb',
    'climber',
  ],
  desert: ['desert', 'dune', 'dunes', 'sand', 'pyramid', 'pyramids', 'egypt', 'sahara', 'oasis', 'camel', 'arid', 'ancient'],
  hills: [
    'hill',
    'hills',
    'field',
    'fields',
    'meadow',
    'farm',
    'countryside',
    'landscape',
    'plain',
    'plains',
    'village',
    'path',
    'road',
    'horizon',
    'prairie',
  ],
};

const TIME_WORDS: Record<TimeOfDay, string[]> = {
  night: [
    'night',
    'midnight',
    'moon',
    'moonlight',
    'moonlit',
    'star',
    'stars',
    'starry',
    'dark',
    'darkness',
    'candle',
    'nocturnal',
    'galaxy',
    'space',
    'cosmos',
    'universe',
    'ghost',
    'haunted',
  ],
  golden: ['sunset', 'golden', 'warm'],
  dusk: ['dusk', 'evening', 'twilight'],
  dawn: ['sunrise', 'dawn', 'morning', 'daybreak', 'hopeful', 'beginning'],
  storm: [
    'storm',
    'stormy',
    'rain',
    'rainy',
    'thunder',
    'lightning',
    'tempest',
    'hurricane',
    'war',
    'battle',
    'shattered',
    'crisis',
    'disaster',
  ],
  day: ['day', 'noon', 'sunny', 'bright', 'summer', 'cheerful', 'clear'],
};

const FOCAL_WORDS: Record<Exclude<Focal, 'none'>, string[]> = {
  lighthouse: ['lighthouse', 'beacon'],
  figure: [
    'figure',
    'person',
    'man',
    'woman',
    'people',
    'keeper',
    'child',
    'hero',
    'explorer',
    'silhouette',
    'silhouetted',
    'walker',
    'traveler',
    'traveller',
    'stranger',
    'soldier',
    'king',
    'queen',
    'girl',
    'boy',
    'hands',
    'lone',
  ],
  cabin: ['cabin', 'house', 'home', 'hut', 'cottage', 'window', 'farmhouse', 'inn', 'shelter'],
  tower: ['castle', 'tower', 'church', 'temple', 'landmark', 'monument', 'palace', 'fortress', 'ruins', 'cathedral'],
  tree: ['oak', 'lone tree', 'old tree', 'willow', 'baobab'],
};

function wordsOf(prompt: string): Set<string> {
  return new Set(prompt.toLocaleLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []);
}

function hits(words: Set<string>, lower: string, vocabulary: string[]): number {
  let count = 0;
  for (const term of vocabulary) if (term.includes(' ') ? lower.includes(term) : words.has(term)) count++;
  return count;
}

function strongest<K extends string>(table: Record<K, string[]>, words: Set<string>, lower: string, random: Random): K | null {
  let best: K[] = [];
  let bestCount = 0;
  for (const key of Object.keys(table) as K[]) {
    const count = hits(words, lower, table[key]);
    if (count > bestCount) {
      best = [key];
      bestCount = count;
    } else if (count === bestCount && count > 0) best.push(key);
  }
  return best.length > 0 ? random.pick(best) : null;
}

const ALLOWED_TIMES: Record<VisualStyle, TimeOfDay[]> = {
  cinematic: ['golden', 'golden', 'dusk', 'night', 'dawn', 'day', 'storm'],
  'dark horror': ['night', 'night', 'storm', 'dusk'],
  'bright colorful': ['day', 'day', 'golden', 'dawn'],
  'realistic photography': ['day', 'day', 'golden', 'dawn', 'dusk', 'night'],
  'artistic painting': ['golden', 'day', 'dawn', 'dusk', 'night', 'storm'],
  'cartoon animation': ['day', 'day', 'golden', 'dawn', 'night'],
};

/** Horror never shows a sunny sky, bright colorful never a storm: the style wins over the prompt. */
function styleTime(style: VisualStyle, wanted: TimeOfDay | null, random: Random): TimeOfDay {
  const allowed = ALLOWED_TIMES[style];
  if (wanted && allowed.includes(wanted)) return wanted;
  if (wanted === 'storm' && style === 'bright colorful') return 'golden';
  if ((wanted === 'day' || wanted === 'dawn' || wanted === 'golden') && style === 'dark horror') return 'dusk';
  if (wanted === 'storm' && style === 'cartoon animation') return 'dusk';
  return random.pick(allowed);
}

function basePalette(time: TimeOfDay, random: Random): Palette {
  const j = () => random.range(-12, 12);
  switch (time) {
    case 'day': {
      const skyHue = 208 + j();
      return {
        skyTop: hsl(skyHue + 6, 68, 40),
        skyMid: hsl(skyHue, 62, 60),
        skyHorizon: hsl(skyHue - 12, 45, 84),
        disc: hsl(50, 100, 94),
        glow: hsl(46, 90, 78),
        near: hsl(150 + j() * 2, 32, 16),
        haze: hsl(skyHue - 8, 38, 76),
        fog: hsl(skyHue - 10, 30, 88),
        cloud: hsl(210, 30, 97),
        rim: hsl(50, 80, 86),
        water: hsl(skyHue, 58, 36),
        window: hsl(200, 30, 80),
        outline: hsl(230, 40, 12),
      };
    }
    case 'golden': {
      const warm = 28 + j();
      return {
        skyTop: hsl(238 + j(), 42, 26),
        skyMid: hsl(340 + j(), 55, 50),
        skyHorizon: hsl(warm, 95, 62),
        disc: hsl(44, 100, 88),
        glow: hsl(warm, 100, 60),
        near: hsl(280 + j(), 35, 11),
        haze: hsl(350 + j(), 45, 55),
        fog: hsl(warm + 5, 70, 70),
        cloud: hsl(15 + j(), 75, 66),
        rim: hsl(warm + 6, 100, 68),
        water: hsl(265, 35, 24),
        window: hsl(42, 100, 66),
        outline: hsl(270, 40, 10),
      };
    }
    case 'dawn': {
      return {
        skyTop: hsl(215 + j(), 45, 38),
        skyMid: hsl(305 + j(), 28, 66),
        skyHorizon: hsl(28 + j(), 82, 78),
        disc: hsl(48, 100, 93),
        glow: hsl(22 + j(), 88, 74),
        near: hsl(228 + j(), 26, 20),
        haze: hsl(280 + j(), 20, 66),
        fog: hsl(20, 50, 86),
        cloud: hsl(340, 55, 82),
        rim: hsl(35, 90, 80),
        water: hsl(225, 35, 40),
        window: hsl(42, 100, 70),
        outline: hsl(230, 35, 14),
      };
    }
    case 'dusk': {
      return {
        skyTop: hsl(236 + j(), 55, 13),
        skyMid: hsl(268 + j(), 40, 30),
        skyHorizon: hsl(14 + j(), 68, 46),
        disc: hsl(24, 95, 72),
        glow: hsl(10 + j(), 82, 46),
        near: hsl(245, 32, 7),
        haze: hsl(285 + j(), 30, 32),
        fog: hsl(300, 25, 45),
        cloud: hsl(330, 35, 35),
        rim: hsl(20, 90, 60),
        water: hsl(250, 40, 16),
        window: hsl(38, 100, 62),
        outline: hsl(250, 40, 6),
      };
    }
    case 'night': {
      const hue = 224 + j();
      return {
        skyTop: hsl(hue + 4, 60, 5),
        skyMid: hsl(hue, 50, 12),
        skyHorizon: hsl(hue - 10, 42, 25),
        disc: hsl(210, 35, 93),
        glow: hsl(212, 55, 62),
        near: hsl(hue + 6, 42, 4),
        haze: hsl(hue - 6, 35, 22),
        fog: hsl(hue - 12, 30, 40),
        cloud: hsl(hue - 8, 25, 26),
        rim: hsl(210, 50, 72),
        water: hsl(hue, 45, 9),
        window: hsl(40, 100, 64),
        outline: hsl(hue, 50, 3),
      };
    }
    case 'storm': {
      const hue = 212 + j();
      return {
        skyTop: hsl(hue, 14, 18),
        skyMid: hsl(hue - 4, 12, 33),
        skyHorizon: hsl(hue - 8, 12, 54),
        disc: hsl(200, 20, 85),
        glow: hsl(200, 22, 66),
        near: hsl(hue, 16, 10),
        haze: hsl(hue - 6, 12, 42),
        fog: hsl(hue - 8, 10, 62),
        cloud: hsl(hue, 12, 26),
        rim: hsl(200, 25, 75),
        water: hsl(hue, 18, 20),
        window: hsl(40, 90, 60),
        outline: hsl(hue, 20, 6),
      };
    }
  }
}

/** The look of each visual style as a colour grade applied to the palette before anything is drawn. */
function gradeColour(style: VisualStyle, colour: Rgb): Rgb {
  switch (style) {
    case 'cinematic': {
      // Teal shadows, warm highlights, a little more contrast: the usual film grade.
      const y = luminance(colour) / 255;
      const tinted = y < 0.45 ? mix(colour, hsl(188, 55, y * 100), 0.28 * (1 - y)) : mix(colour, hsl(32, 85, y * 100), 0.12 * y);
      return scale(tinted, y < 0.5 ? 0.9 : 1.04);
    }
    case 'dark horror': {
      const cold = mix(desaturate(colour, 0.72), hsl(192, 22, (luminance(colour) / 255) * 100), 0.3);
      return scale(cold, 0.86);
    }
    case 'bright colorful':
      return scale(desaturate(colour, -0.45), 1.08);
    case 'realistic photography':
      return desaturate(colour, 0.12);
    case 'artistic painting':
      return mix(desaturate(colour, -0.15), hsl(38, 60, (luminance(colour) / 255) * 100), 0.08);
    case 'cartoon animation':
      return scale(desaturate(colour, -0.55), 1.06);
  }
}

function gradePalette(style: VisualStyle, palette: Palette): Palette {
  const graded = {} as Record<keyof Palette, Rgb>;
  for (const key of Object.keys(palette) as (keyof Palette)[]) graded[key] = gradeColour(style, palette[key]);
  if (style === 'dark horror') graded.window = hsl(30, 70, 45);
  return graded;
}

/**
 * What one picture shows. The scene's subjects (offline-image-subject-choice) are the picture's
 * subject, in the setting they belong in; the scene's prompt still picks the light and, where the
 * subject has no setting of its own, the landscape. Without chosen subjects the prompt's hand-drawn
 * subject is used; with neither, the picture is the landscape the prompt describes.
 */
/** Where the horizon may lie, as a share of the height (the painter lays its sky and land brushwork to match). */
export const HORIZON_RANGE = [0.56, 0.68] as const;

export function planScene(prompt: string, style: VisualStyle, random: Random, subjects: SceneSubjects | null = null): ScenePlan {
  const lower = prompt.toLocaleLowerCase();
  const words = wordsOf(prompt);
  const motif = subjects ? subjects.motif : findMotif(prompt);
  const settingMotif = subjects ? (subjects.motif ?? subjects.setting) : motif;
  const setting = settingMotif ? motifSpec(settingMotif).setting : undefined;
  const landmark = subjects?.landmark ?? null;
  const terrain =
    (landmark === 'lighthouse' ? 'sea' : undefined) ??
    setting?.terrain ??
    strongest(TERRAIN_WORDS, words, lower, random) ??
    random.pick<Terrain>(['mountains', 'hills', 'city', 'forest', 'sea', 'desert']);
  const time = styleTime(style, setting?.time ?? strongest(TIME_WORDS, words, lower, random), random);
  let focal: Focal =
    strongest(FOCAL_WORDS, words, lower, random) ??
    (random.chance(0.45) ? random.pick<Focal>(['figure', 'tree', 'cabin', 'tower']) : 'none');
  // A named lighthouse is the subject even when a figure is mentioned too.
  if (terrain === 'sea' && hits(words, lower, FOCAL_WORDS.lighthouse) > 0) focal = 'lighthouse';
  if (focal === 'lighthouse' && terrain !== 'sea') focal = 'tower';
  if (terrain === 'city' && (focal === 'tree' || focal === 'cabin')) focal = 'figure';
  // The subject stands alone: a second, smaller focal point would compete with it.
  if (motif || subjects?.main) focal = 'none';
  // A lighthouse or a named landmark the artwork lacks is the painter's own building.
  if (landmark) focal = landmark;
  const horizon = random.range(HORIZON_RANGE[0], HORIZON_RANGE[1]);
  const low = time === 'golden' || time === 'dusk' || time === 'dawn';
  const sunY = low ? horizon - random.range(0.04, 0.14) : horizon - random.range(0.22, 0.4);
  return {
    style,
    terrain,
    time,
    focal,
    motif,
    subjects,
    horizon,
    sunX: random.range(0.22, 0.78),
    sunY: Math.max(0.12, sunY),
    palette: gradePalette(style, basePalette(time, random)),
  };
}
