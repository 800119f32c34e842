import type { Terrain, TimeOfDay } from './offline-image-setting.js';

/**
 * What a picture is of: a vocabulary of subjects the offline painter can draw, each found from a
 * topic or a scene prompt in any of the supported languages (a small keyword table per subject),
 * with the setting it belongs in. Latin-script keywords match whole words (plurals too); keywords
 * in other scripts match as text, since Japanese has no spaces and Devanagari words carry marks.
 */
// A table, one subject a line: the formatter would give every keyword a line of its own.
// prettier-ignore
export const MOTIFS = {
  octopus: { words: ['octopus', 'octopuses', 'octopi', 'squid', 'tentacle', 'tentacles', 'cephalopod', 'ऑक्टोपस', 'अष्टभुज', 'タコ', '蛸', 'イカ', 'krake', 'oktopus', 'tintenfisch', 'pulpo', 'calamar', 'pieuvre', 'poulpe', 'polvo', 'lula'], setting: { terrain: 'sea' }, place: 'water' },
  fish: { words: ['fish', 'coral', 'reef', 'aquarium', 'मछली', 'मछलियाँ', '魚', 'サンゴ', '熱帯魚', 'fisch', 'korallen', 'pez', 'peces', 'coral', 'arrecife', 'poisson', 'poissons', 'corail', 'peixe', 'peixes', 'recife'], setting: { terrain: 'sea' }, place: 'water' },
  whale: { words: ['whale', 'whales', 'dolphin', 'dolphins', 'shark', 'sharks', 'व्हेल', 'डॉल्फ़िन', 'शार्क', 'クジラ', '鯨', 'イルカ', 'サメ', 'wal', 'wale', 'delfin', 'hai', 'ballena', 'delfín', 'tiburón', 'baleine', 'dauphin', 'requin', 'baleia', 'golfinho', 'tubarão'], setting: { terrain: 'sea' }, place: 'water' },
  turtle: { words: ['turtle', 'turtles', 'tortoise', 'कछुआ', 'カメ', '亀', 'schildkröte', 'tortuga', 'tortue', 'tartaruga'], setting: { terrain: 'sea' }, place: 'ground' },
  volcano: { words: ['volcano', 'volcanoes', 'volcanic', 'lava', 'eruption', 'magma', 'ज्वालामुखी', 'लावा', '火山', '噴火', '溶岩', 'vulkan', 'vulkane', 'volcán', 'volcanes', 'volcan', 'volcans', 'vulcão', 'vulcões'], setting: { terrain: 'mountains' }, place: 'center' },
  mountain: { words: ['mountain', 'mountains', 'everest', 'fuji', 'himalaya', 'himalayas', 'peak', 'पहाड़', 'पर्वत', 'हिमालय', '富士山', '山脈', '登山', 'berg', 'berge', 'gebirge', 'montaña', 'montañas', 'montagne', 'montagnes', 'montanha', 'montanhas'], setting: { terrain: 'mountains' }, place: 'center' },
  river: { words: ['river', 'rivers', 'ganga', 'ganges', 'nile', 'amazon', 'waterfall', 'नदी', 'गंगा', 'झरना', '川', '河', '滝', 'fluss', 'wasserfall', 'río', 'cascada', 'rivière', 'fleuve', 'cascade', 'rio', 'cachoeira'], setting: { terrain: 'hills' }, place: 'ground' },
  planet: { words: ['planet', 'planets', 'saturn', 'jupiter', 'mars', 'solar system', 'ग्रह', 'शनि', 'मंगल', '惑星', '土星', '火星', '木星', 'planeten', 'planeta', 'planetas', 'planète', 'planètes'], setting: { time: 'night' }, place: 'sky' },
  moon: { words: ['moon', 'lunar', 'चाँद', 'चंद्रमा', 'चन्द्रमा', '満月', '月面', 'お月', 'mond', 'luna', 'lune', 'lua'], setting: { time: 'night' }, place: 'sky' },
  rocket: { words: ['rocket', 'rockets', 'spaceship', 'spacecraft', 'astronaut', 'astronauts', 'nasa', 'isro', 'रॉकेट', 'अंतरिक्ष यात्री', 'ロケット', '宇宙飛行士', 'rakete', 'astronaut', 'cohete', 'astronauta', 'fusée', 'astronaute', 'foguete'], setting: { time: 'night' }, place: 'ground' },
  galaxy: { words: ['galaxy', 'galaxies', 'universe', 'cosmos', 'black hole', 'nebula', 'आकाशगंगा', 'ब्रह्मांड', 'ब्रह्माण्ड', '銀河', '宇宙', 'ブラックホール', 'galaxie', 'universum', 'weltall', 'galaxia', 'universo', 'univers', 'galáxia'], setting: { time: 'night' }, place: 'sky' },
  sun: { words: ['sun', 'solar', 'सूरज', 'सूर्य', '太陽', 'sonne', 'sol', 'soleil'], setting: { time: 'day' }, place: 'sky' },
  earth: { words: ['earth', 'globe', 'world', 'climate', 'पृथ्वी', 'दुनिया', 'धरती', '地球', '世界', 'erde', 'welt', 'klima', 'tierra', 'mundo', 'clima', 'terre', 'monde', 'climat', 'terra'], setting: { time: 'night' }, place: 'sky' },
  books: { words: ['book', 'books', 'library', 'reading', 'novel', 'किताब', 'किताबें', 'पुस्तक', 'पुस्तकालय', '図書館', '読書', '書籍', '小説', 'buch', 'bücher', 'bibliothek', 'libro', 'libros', 'biblioteca', 'livre', 'livres', 'bibliothèque', 'livro', 'livros'], place: 'ground' },
  food: { words: ['food', 'cooking', 'recipe', 'pizza', 'bread', 'meal', 'cake', 'cuisine', 'खाना', 'भोजन', 'व्यंजन', '料理', '食べ物', 'ラーメン', '寿司', 'essen', 'kochen', 'rezept', 'comida', 'cocina', 'receta', 'nourriture', 'recette', 'receita', 'culinária'], place: 'ground' },
  coffee: { words: ['coffee', 'tea', 'cafe', 'चाय', 'कॉफ़ी', 'कॉफी', 'コーヒー', 'お茶', '紅茶', 'kaffee', 'tee', 'café', 'té', 'thé', 'chá'], place: 'ground' },
  music: { words: ['music', 'song', 'songs', 'guitar', 'piano', 'concert', 'melody', 'संगीत', 'गाना', 'गीत', '音楽', '歌', 'ギター', 'ピアノ', 'musik', 'lied', 'música', 'canción', 'musique', 'chanson', 'canção'], place: 'sky' },
  sport: { words: ['football', 'soccer', 'sport', 'sports', 'cricket', 'basketball', 'tennis', 'olympics', 'खेल', 'क्रिकेट', 'फुटबॉल', 'サッカー', 'スポーツ', '野球', 'fußball', 'fussball', 'fútbol', 'deporte', 'deportes', 'sport', 'futebol', 'esporte', 'esportes'], setting: { terrain: 'hills', time: 'day' }, place: 'ground' },
  machine: { words: ['machine', 'machines', 'engine', 'engines', 'gear', 'gears', 'industry', 'factory', 'मशीन', 'इंजन', 'कारखाना', '機械', 'エンジン', '工場', 'maschine', 'motor', 'fabrik', 'máquina', 'fábrica', 'usine', 'moteur'], setting: { terrain: 'city' }, place: 'sky' },
  robot: { words: ['robot', 'robots', 'ai', 'artificial intelligence', 'android', 'रोबोट', 'कृत्रिम बुद्धि', 'ロボット', '人工知能', 'roboter', 'ki', 'künstliche intelligenz', 'ia', 'inteligencia artificial', 'intelligence artificielle', 'robô', 'inteligência artificial'], setting: { terrain: 'city' }, place: 'ground' },
  computer: { words: ['computer', 'computers', 'laptop', 'code', 'coding', 'software', 'internet', 'programming', 'कंप्यूटर', 'कम्प्यूटर', 'इंटरनेट', 'コンピューター', 'パソコン', 'プログラミング', 'ordenador', 'computadora', 'programación', 'ordinateur', 'programmation', 'computador', 'programação'], setting: { terrain: 'city' }, place: 'ground' },
  phone: { words: ['phone', 'phones', 'smartphone', 'mobile', 'social media', 'app', 'apps', 'फ़ोन', 'फोन', 'मोबाइल', 'スマホ', '携帯', 'スマートフォン', 'handy', 'smartphone', 'teléfono', 'móvil', 'téléphone', 'portable', 'celular', 'telefone'], setting: { terrain: 'city' }, place: 'ground' },
  heart: { words: ['heart', 'hearts', 'love', 'romance', 'दिल', 'प्रेम', 'प्यार', 'हृदय', '心臓', '愛', '恋', 'ハート', 'herz', 'herzen', 'liebe', 'corazón', 'corazones', 'amor', 'cœur', 'coeur', 'amour', 'coração', 'corações'], place: 'sky' },
  brain: { words: ['brain', 'brains', 'mind', 'psychology', 'memory', 'neuroscience', 'दिमाग', 'मस्तिष्क', 'मन', 'मनोविज्ञान', '脳', '心理', '記憶', 'gehirn', 'psychologie', 'gedächtnis', 'cerebro', 'mente', 'psicología', 'memoria', 'cerveau', 'esprit', 'mémoire', 'cérebro', 'psicologia', 'memória'], place: 'sky' },
  cat: { words: ['cat', 'cats', 'kitten', 'kittens', 'बिल्ली', '猫', 'ネコ', 'ねこ', 'katze', 'katzen', 'gato', 'gatos', 'chat', 'chats'], place: 'ground' },
  dog: { words: ['dog', 'dogs', 'puppy', 'puppies', 'कुत्ता', 'कुत्ते', '犬', 'イヌ', 'いぬ', 'hund', 'hunde', 'perro', 'perros', 'chien', 'chiens', 'cachorro', 'cão', 'cães'], place: 'ground' },
  bird: { words: ['bird', 'birds', 'eagle', 'parrot', 'owl', 'migration', 'पक्षी', 'चिड़िया', 'बाज़', 'तोता', '鳥', 'ワシ', 'フクロウ', 'vogel', 'vögel', 'adler', 'pájaro', 'pájaros', 'ave', 'aves', 'águila', 'oiseau', 'oiseaux', 'aigle', 'pássaro', 'pássaros'], place: 'sky' },
  butterfly: { words: ['butterfly', 'butterflies', 'bee', 'bees', 'insect', 'insects', 'तितली', 'मधुमक्खी', 'कीट', '蝶', 'チョウ', '蜂', 'ハチ', '昆虫', 'schmetterling', 'biene', 'bienen', 'insekt', 'insekten', 'mariposa', 'abeja', 'insecto', 'papillon', 'abeille', 'insecte', 'borboleta', 'abelha', 'inseto'], setting: { terrain: 'hills', time: 'day' }, place: 'sky' },
  elephant: { words: ['elephant', 'elephants', 'हाथी', '象', 'ゾウ', 'elefant', 'elefanten', 'elefante', 'elefantes', 'éléphant'], setting: { terrain: 'hills' }, place: 'ground' },
  lion: { words: ['lion', 'lions', 'tiger', 'tigers', 'शेर', 'बाघ', 'ライオン', '虎', 'トラ', 'löwe', 'tiger', 'león', 'tigre', 'leão'], setting: { terrain: 'hills', time: 'golden' }, place: 'ground' },
  dinosaur: { words: ['dinosaur', 'dinosaurs', 't-rex', 'fossil', 'fossils', 'jurassic', 'डायनासोर', '恐竜', '化石', 'dinosaurier', 'dinosaurio', 'dinosaurios', 'dinosaure', 'dinosaures', 'dinossauro', 'dinossauros'], setting: { terrain: 'forest' }, place: 'ground' },
  flower: { words: ['flower', 'flowers', 'rose', 'lotus', 'blossom', 'garden', 'फूल', 'कमल', 'गुलाब', '花', '桜', 'バラ', 'blume', 'blumen', 'rose', 'flor', 'flores', 'fleur', 'fleurs'], setting: { terrain: 'hills', time: 'day' }, place: 'ground' },
  tree: { words: ['tree', 'trees', 'forest', 'rainforest', 'jungle', 'पेड़', 'वृक्ष', 'जंगल', '森', '樹木', '大木', 'baum', 'bäume', 'wald', 'árbol', 'árboles', 'bosque', 'selva', 'arbre', 'arbres', 'forêt', 'árvore', 'árvores', 'floresta'], setting: { terrain: 'forest' }, place: 'ground' },
  city: { words: ['city', 'cities', 'skyscraper', 'skyscrapers', 'new york', 'tokyo', 'mumbai', 'शहर', 'मुंबई', 'दिल्ली', '都市', '東京', 'ビル', 'stadt', 'städte', 'ciudad', 'ciudades', 'ville', 'villes', 'cidade', 'cidades'], setting: { terrain: 'city' }, place: 'ground' },
  car: { words: ['car', 'cars', 'vehicle', 'vehicles', 'automobile', 'racing', 'कार', 'गाड़ी', 'गाड़ियाँ', '車', '自動車', 'auto', 'autos', 'coche', 'coches', 'carro', 'voiture', 'voitures', 'carros'], setting: { terrain: 'hills' }, place: 'ground' },
  train: { words: ['train', 'trains', 'railway', 'railroad', 'locomotive', 'ट्रेन', 'रेल', 'रेलगाड़ी', '電車', '列車', '新幹線', '鉄道', 'zug', 'züge', 'eisenbahn', 'tren', 'trenes', 'ferrocarril', 'trains', 'trem', 'trens', 'ferrovia'], setting: { terrain: 'hills' }, place: 'ground' },
  airplane: { words: ['airplane', 'airplanes', 'plane', 'planes', 'aircraft', 'flight', 'aviation', 'हवाई जहाज़', 'हवाई जहाज', 'विमान', '飛行機', 'flugzeug', 'flugzeuge', 'avión', 'aviones', 'avion', 'avions', 'avião', 'aviões'], setting: { time: 'day' }, place: 'sky' },
  ship: { words: ['ship', 'ships', 'boat', 'boats', 'titanic', 'sailing', 'जहाज़', 'जहाज', 'नाव', '船', 'ヨット', 'schiff', 'schiffe', 'boot', 'barco', 'barcos', 'bateau', 'bateaux', 'navire', 'navio', 'navios'], setting: { terrain: 'sea' }, place: 'water' },
  money: { words: ['money', 'coin', 'coins', 'finance', 'bitcoin', 'economy', 'investing', 'investment', 'wealth', 'पैसा', 'पैसे', 'धन', 'निवेश', 'お金', '経済', '投資', 'geld', 'münze', 'wirtschaft', 'dinero', 'moneda', 'economía', 'argent', 'monnaie', 'économie', 'dinheiro', 'moeda', 'economia'], place: 'sky' },
  idea: { words: ['idea', 'ideas', 'invention', 'inventions', 'electricity', 'light bulb', 'innovation', 'विचार', 'आविष्कार', 'बिजली', 'アイデア', '発明', '電気', 'idee', 'ideen', 'erfindung', 'strom', 'invento', 'electricidad', 'idée', 'idées', 'électricité', 'ideia', 'invenção', 'eletricidade'], place: 'sky' },
  atom: { words: ['atom', 'atoms', 'science', 'physics', 'chemistry', 'quantum', 'molecule', 'विज्ञान', 'परमाणु', 'भौतिकी', 'रसायन', '科学', '原子', '物理', '化学', 'wissenschaft', 'physik', 'chemie', 'ciencia', 'átomo', 'física', 'química', 'atome', 'physique', 'chimie', 'ciência'], place: 'sky' },
  pyramid: { words: ['pyramid', 'pyramids', 'egypt', 'pharaoh', 'pharaohs', 'पिरामिड', 'मिस्र', 'ピラミッド', 'エジプト', 'pyramide', 'pyramiden', 'ägypten', 'pirámide', 'pirámides', 'egipto', 'pyramides', 'égypte', 'pirâmide', 'pirâmides', 'egito'], setting: { terrain: 'desert' }, place: 'center' },
  temple: { words: ['temple', 'temples', 'castle', 'castles', 'palace', 'shrine', 'fortress', 'मंदिर', 'महल', 'किला', '城', '寺', '神社', 'burg', 'schloss', 'tempel', 'castillo', 'templo', 'palacio', 'château', 'palais', 'castelo', 'palácio'], place: 'center' },
  clock: { words: ['time', 'clock', 'clocks', 'history', 'समय', 'घड़ी', 'इतिहास', '時間', '時計', '歴史', 'zeit', 'uhr', 'geschichte', 'tiempo', 'reloj', 'historia', 'temps', 'horloge', 'histoire', 'tempo', 'relógio', 'história'], place: 'sky' },
  snow: { words: ['snow', 'ice', 'arctic', 'antarctica', 'penguin', 'penguins', 'polar', 'winter', 'बर्फ़', 'बर्फ', 'पेंगुइन', '雪', '氷', 'ペンギン', '南極', '北極', 'schnee', 'eis', 'pinguin', 'nieve', 'hielo', 'pingüino', 'neige', 'glace', 'manchot', 'neve', 'gelo', 'pinguim'], setting: { terrain: 'mountains' }, place: 'ground' },
} satisfies Record<string, MotifSpec>;

interface MotifSpec {
  words: string[];
  /** Where the subject belongs: it overrides the scene's terrain or time when the prompt names none. */
  setting?: { terrain?: Terrain; time?: TimeOfDay };
  /** Where it is drawn: standing on the ground, up in the sky, rising from the water, or filling the middle. */
  place: 'ground' | 'sky' | 'water' | 'center';
}

export type Motif = keyof typeof MOTIFS;
export const MOTIF_IDS = Object.keys(MOTIFS) as Motif[];

/**
 * Words that name a subject only loosely (history, time, world, love, science, …): any concrete
 * subject in the same text wins over them ("A história do café" is about coffee, not clocks).
 */
const LOOSE = new Set([
  'history',
  'historia',
  'histoire',
  'história',
  'geschichte',
  'इतिहास',
  '歴史',
  'time',
  'tiempo',
  'temps',
  'tempo',
  'zeit',
  'समय',
  '時間',
  'world',
  'mundo',
  'monde',
  'welt',
  'दुनिया',
  '世界',
  'love',
  'amor',
  'amour',
  'liebe',
  'प्यार',
  'प्रेम',
  '愛',
  'mind',
  'mente',
  'esprit',
  'मन',
  'memory',
  'memoria',
  'mémoire',
  'memória',
  'idea',
  'ideas',
  'idée',
  'idées',
  'idee',
  'ideen',
  'ideia',
  'विचार',
  'science',
  'ciencia',
  'wissenschaft',
  'ciência',
  'विज्ञान',
  '科学',
  'economy',
  'economía',
  'économie',
  'wirtschaft',
  'economia',
  '経済',
]);

const LATIN = /^[\p{Script=Latin}\p{N}\s'-]+$/u;
const SINGLE_WORD = /^[\p{L}\p{M}]+$/u;
interface Matcher {
  motif: Motif;
  loose: boolean;
  length: number;
  /** Where the word is in the text, or -1. */
  find: (text: string, words: ReadonlyMap<string, number>) => number;
}
// Single Latin words are looked up among the text's words (with a plural ending); compiling a
// Unicode-aware pattern for each of hundreds of keywords costs a quarter of a second.
const matchers: Matcher[] = MOTIF_IDS.flatMap((motif) =>
  MOTIFS[motif].words.map((word): Matcher => {
    const latin = LATIN.test(word);
    let pattern: RegExp | null = null;
    const find =
      latin && SINGLE_WORD.test(word)
        ? (_text: string, words: ReadonlyMap<string, number>) => words.get(word) ?? -1
        : latin
          ? (text: string) => (pattern ??= new RegExp(`(?<![\\p{L}\\p{M}])${word}(?:s|es)?(?![\\p{L}\\p{M}])`, 'u')).exec(text)?.index ?? -1
          : (text: string) => text.indexOf(word);
    return { motif, loose: LOOSE.has(word), length: [...word].length, find };
  }),
);

/** Each word of the text, also without a plural ending, at its first position. */
function wordPositions(text: string): Map<string, number> {
  const positions = new Map<string, number>();
  for (const match of text.matchAll(/[\p{L}\p{M}]+/gu)) {
    const word = match[0];
    for (const form of [word, word.endsWith('es') ? word.slice(0, -2) : '', word.endsWith('s') ? word.slice(0, -1) : '']) {
      if (form && !positions.has(form)) positions.set(form, match.index);
    }
  }
  return positions;
}

/**
 * The subject a text names, or null. A concrete subject beats a loose one; among equals the one
 * named first is the subject ("octopuses … hearts"), and at one place the longer word (電車, a
 * train, over 車, a car).
 */
export function findMotif(text: string): Motif | null {
  const lower = text.toLocaleLowerCase();
  const words = wordPositions(lower);
  let best: { motif: Motif; loose: boolean; at: number; length: number } | null = null;
  for (const matcher of matchers) {
    const at = matcher.find(lower, words);
    if (at < 0) continue;
    const better =
      !best ||
      (best.loose && !matcher.loose) ||
      (best.loose === matcher.loose && (at < best.at || (at === best.at && matcher.length > best.length)));
    if (better) best = { motif: matcher.motif, loose: matcher.loose, at, length: matcher.length };
  }
  return best?.motif ?? null;
}

export function motifSpec(motif: Motif): MotifSpec {
  return MOTIFS[motif];
}
