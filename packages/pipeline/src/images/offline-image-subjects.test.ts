import { describe, expect, it } from 'vitest';
import { chooseSceneSubjects } from './offline-image-subject-choice.js';
import { allSubjects, findSubjects } from './offline-image-subjects.js';

/**
 * Hand-written topics a creator might type, in the seven narration languages, with the subject a
 * picture of them should show (any of the names given). Plurals, inflections, compounds, typed
 * emoji and non-Latin scripts on purpose; none of these strings appears in the annotations as is.
 */
const TOPICS: ReadonlyArray<readonly [language: string, topic: string, expected: readonly string[]]> = [
  // English
  ['en', 'The history of the bicycle', ['bicycle']],
  ['en', 'Why honeybees dance', ['honeybee']],
  ['en', 'How octopuses change colour', ['octopus']],
  ['en', 'Why cats purr', ['cat']],
  ['en', 'The secret life of dolphins', ['dolphin']],
  ['en', 'How penguins survive the Antarctic winter', ['penguin']],
  ['en', 'Ten facts about giraffes', ['giraffe']],
  ['en', 'How elephants remember', ['elephant']],
  ['en', 'The rise and fall of the telescope', ['telescope']],
  ['en', 'Why we love pizza', ['pizza']],
  ['en', 'The invention of the telephone', ['telephone', 'telephone receiver']],
  ['en', 'Castles and their keepers', ['castle', 'Japanese castle']],
  ['en', 'How sushi conquered the world', ['sushi']],
  ['en', 'The first airplanes', ['airplane']],
  ['en', 'Trains that changed history', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train']],
  ['en', 'Why tomatoes are fruits', ['tomato']],
  ['en', 'How bananas became the world’s favourite fruit', ['banana']],
  ['en', 'The science of rainbows', ['rainbow']],
  ['en', 'Sharks are older than trees', ['shark']],
  ['en', 'How violins are made', ['violin']],
  ['en', 'Mushrooms that glow in the dark', ['mushroom']],
  ['en', 'The story of chess', ['chess pawn']],
  ['en', 'Why owls hunt at night', ['owl']],
  ['en', 'Tornadoes explained', ['tornado']],
  ['en', 'The strange life of snails', ['snail']],
  ['en', 'Coffee: from bean to cup', ['hot beverage', 'coffee']],
  ['en', 'How volcanoes build islands', ['volcano']],
  ['en', '🐝 dance', ['honeybee']],
  ['en', 'The 🚲 revolution', ['bicycle']],
  ['en', 'Kangaroos of Australia', ['kangaroo']],
  // German
  ['de', 'Die Geschichte des Fahrrads', ['bicycle']],
  ['de', 'Warum Honigbienen tanzen', ['honeybee']],
  ['de', 'Wie Katzen schnurren', ['cat']],
  ['de', 'Das Leben der Delfine', ['dolphin']],
  ['de', 'Pinguine in der Antarktis', ['penguin']],
  ['de', 'Warum Elefanten nie vergessen', ['elephant']],
  ['de', 'Die Erfindung des Telefons', ['telephone', 'telephone receiver']],
  ['de', 'Wie Vulkane Inseln bauen', ['volcano']],
  ['de', 'Die Geschichte der Eisenbahn', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train', 'railway track']],
  ['de', 'Warum Tomaten Früchte sind', ['tomato']],
  ['de', 'Das Geheimnis der Regenbogen', ['rainbow']],
  ['de', 'Haie sind älter als Bäume', ['shark']],
  ['de', 'Pilze, die im Dunkeln leuchten', ['mushroom']],
  ['de', 'Warum Eulen nachts jagen', ['owl']],
  ['de', 'Die ersten Flugzeuge', ['airplane']],
  ['de', 'Wie man eine Geige baut', ['violin']],
  ['de', 'Der Fahrradhelm im Alltag', ['bicycle', 'military helmet', 'rescue worker’s helmet']],
  ['de', 'Kängurus in Australien', ['kangaroo']],
  ['de', 'Die Geschichte des Teleskops', ['telescope']],
  ['de', 'Schnecken im Garten', ['snail']],
  ['de', 'Warum wir Pizza lieben', ['pizza']],
  ['de', 'Giraffen und ihre langen Hälse', ['giraffe']],
  // Spanish
  ['es', 'La historia de la bicicleta', ['bicycle']],
  ['es', 'Por qué bailan las abejas', ['honeybee']],
  ['es', 'Cómo ronronean los gatos', ['cat']],
  ['es', 'La vida secreta de los delfines', ['dolphin']],
  ['es', 'Los pingüinos de la Antártida', ['penguin']],
  ['es', 'Por qué los elefantes nunca olvidan', ['elephant']],
  ['es', 'La invención del teléfono', ['telephone', 'telephone receiver']],
  ['es', 'Cómo los volcanes crean islas', ['volcano']],
  ['es', 'Trenes que cambiaron la historia', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train']],
  ['es', 'Por qué los tomates son frutas', ['tomato']],
  ['es', 'La ciencia del arcoíris', ['rainbow']],
  ['es', 'Los tiburones son más antiguos que los árboles', ['shark']],
  ['es', 'Hongos que brillan en la oscuridad', ['mushroom']],
  ['es', 'Por qué los búhos cazan de noche', ['owl']],
  ['es', 'Los primeros aviones', ['airplane']],
  ['es', 'Cómo se fabrica un violín', ['violin']],
  ['es', 'Canguros de Australia', ['kangaroo']],
  ['es', 'La historia del café', ['hot beverage', 'coffee']],
  ['es', 'Las jirafas y sus cuellos', ['giraffe']],
  ['es', 'El misterio de los caracoles', ['snail']],
  ['es', 'Por qué amamos la pizza', ['pizza']],
  ['es', 'Los pulpos tienen tres corazones', ['octopus']],
  // French
  ['fr', 'L’histoire du vélo', ['bicycle']],
  ['fr', 'Pourquoi les abeilles dansent', ['honeybee']],
  ['fr', 'Pourquoi les chats ronronnent', ['cat']],
  ['fr', 'La vie secrète des dauphins', ['dolphin']],
  ['fr', 'Les manchots de l’Antarctique', ['penguin']],
  ['fr', 'Pourquoi les éléphants n’oublient jamais', ['elephant']],
  ['fr', 'L’invention du téléphone', ['telephone', 'telephone receiver']],
  ['fr', 'Comment les volcans créent des îles', ['volcano']],
  ['fr', 'Les trains qui ont changé l’histoire', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train']],
  ['fr', 'Pourquoi les tomates sont des fruits', ['tomato']],
  ['fr', 'La science des arcs-en-ciel', ['rainbow']],
  ['fr', 'Les requins sont plus vieux que les arbres', ['shark']],
  ['fr', 'Des champignons qui brillent dans le noir', ['mushroom']],
  ['fr', 'Pourquoi les hiboux chassent la nuit', ['owl']],
  ['fr', 'Les premiers avions', ['airplane']],
  ['fr', 'Comment on fabrique un violon', ['violin']],
  ['fr', 'Les kangourous d’Australie', ['kangaroo']],
  ['fr', 'Les girafes et leur long cou', ['giraffe']],
  ['fr', 'Le mystère des escargots', ['snail']],
  ['fr', 'Pourquoi nous aimons la pizza', ['pizza']],
  ['fr', 'Les pieuvres ont trois cœurs', ['octopus']],
  ['fr', 'Une histoire des bananes', ['banana']],
  // Portuguese
  ['pt', 'A história da bicicleta', ['bicycle']],
  ['pt', 'Por que as abelhas dançam', ['honeybee']],
  ['pt', 'Por que os gatos ronronam', ['cat']],
  ['pt', 'A vida secreta dos golfinhos', ['dolphin']],
  ['pt', 'Os pinguins da Antártida', ['penguin']],
  ['pt', 'Por que os elefantes nunca esquecem', ['elephant']],
  ['pt', 'A invenção do telefone', ['telephone', 'telephone receiver']],
  ['pt', 'Como os vulcões criam ilhas', ['volcano']],
  ['pt', 'Trens que mudaram a história', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train']],
  ['pt', 'Por que os tomates são frutas', ['tomato']],
  ['pt', 'A ciência do arco-íris', ['rainbow']],
  ['pt', 'Os tubarões são mais antigos que as árvores', ['shark']],
  ['pt', 'Cogumelos que brilham no escuro', ['mushroom']],
  ['pt', 'Por que as corujas caçam à noite', ['owl']],
  ['pt', 'Os primeiros aviões', ['airplane']],
  ['pt', 'Como se faz um violino', ['violin']],
  ['pt', 'Os cangurus da Austrália', ['kangaroo']],
  ['pt', 'As girafas e seus pescoços', ['giraffe']],
  ['pt', 'O mistério dos caracóis', ['snail']],
  ['pt', 'Por que amamos pizza', ['pizza']],
  ['pt', 'Os polvos têm três corações', ['octopus']],
  ['pt', 'A história do café', ['hot beverage', 'coffee']],
  // Hindi
  ['hi', 'साइकिल का इतिहास', ['bicycle']],
  ['hi', 'मधुमक्खियाँ क्यों नाचती हैं', ['honeybee']],
  ['hi', 'बिल्लियाँ क्यों घुरघुराती हैं', ['cat']],
  ['hi', 'डॉल्फ़िन का रहस्यमय जीवन', ['dolphin']],
  ['hi', 'अंटार्कटिका के पेंगुइन', ['penguin']],
  ['hi', 'हाथी कभी नहीं भूलते', ['elephant']],
  ['hi', 'टेलीफ़ोन का आविष्कार', ['telephone', 'telephone receiver']],
  ['hi', 'ज्वालामुखी द्वीप कैसे बनाते हैं', ['volcano']],
  ['hi', 'रेलगाड़ी की कहानी', ['locomotive', 'train', 'railway car', 'high-speed train', 'bullet train']],
  ['hi', 'टमाटर फल क्यों है', ['tomato']],
  ['hi', 'इंद्रधनुष का विज्ञान', ['rainbow']],
  ['hi', 'शार्क पेड़ों से भी पुरानी हैं', ['shark']],
  ['hi', 'उल्लू रात में शिकार क्यों करते हैं', ['owl']],
  ['hi', 'पहले हवाई जहाज़', ['airplane']],
  ['hi', 'वायलिन कैसे बनता है', ['violin']],
  ['hi', 'ऑस्ट्रेलिया के कंगारू', ['kangaroo']],
  ['hi', 'जिराफ़ की लंबी गर्दन', ['giraffe']],
  ['hi', 'घोंघे का रहस्य', ['snail']],
  ['hi', 'हमें पिज़्ज़ा क्यों पसंद है', ['pizza']],
  ['hi', 'केले की कहानी', ['banana']],
  ['hi', 'हिमालय कैसे बना', ['mountain', 'snow-capped mountain']],
  // Japanese
  ['ja', '自転車の歴史', ['bicycle']],
  ['ja', 'ミツバチはなぜ踊るのか', ['honeybee']],
  ['ja', '猫はなぜゴロゴロ鳴くのか', ['cat', 'cat face']],
  ['ja', 'イルカの秘密の生活', ['dolphin']],
  ['ja', '南極のペンギン', ['penguin']],
  ['ja', '象は忘れない', ['elephant']],
  ['ja', '電話の発明', ['telephone', 'telephone receiver']],
  ['ja', '火山はどうやって島をつくるのか', ['volcano']],
  ['ja', '歴史を変えた機関車', ['locomotive']],
  ['ja', 'トマトはなぜ果物なのか', ['tomato']],
  ['ja', '虹の科学', ['rainbow']],
  ['ja', 'サメは木よりも古い', ['shark']],
  ['ja', 'フクロウが夜に狩りをする理由', ['owl']],
  ['ja', '初めての飛行機', ['airplane']],
  ['ja', 'バイオリンの作り方', ['violin']],
  ['ja', 'オーストラリアのカンガルー', ['kangaroo']],
  ['ja', 'キリンの長い首', ['giraffe']],
  ['ja', 'カタツムリの不思議', ['snail']],
  ['ja', '桜の歴史', ['cherry blossom']],
  ['ja', 'バナナの物語', ['banana']],
  ['ja', 'タコの心臓はなぜ三つあるのか', ['octopus']],
  ['ja', '富士山はどうやってできたのか', ['mount fuji', 'mountain']],
];

describe('the subject library', () => {
  it('draws on about a thousand subjects', () => {
    expect(allSubjects().length).toBeGreaterThan(900);
  });

  it('finds the expected subject for at least 90% of hand-written topics in the seven languages', () => {
    expect(TOPICS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(TOPICS.map(([language]) => language)).size).toBe(7);
    const misses = TOPICS.filter(([language, topic, expected]) => {
      const chosen = chooseSceneSubjects({ prompt: '', topic, language, seed: 0 }).name;
      return !chosen || !expected.includes(chosen);
    }).map(([language, topic]) => `${language}: ${topic} -> ${chooseSceneSubjects({ prompt: '', topic, language, seed: 0 }).name}`);
    const rate = 1 - misses.length / TOPICS.length;
    expect(rate, `missed:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(0.9);
  });

  it('reads plurals and inflections in Latin scripts, and compounds in German', () => {
    expect(findSubjects('honeybees', 'en')[0]?.subject.name).toBe('honeybee');
    expect(findSubjects('bicicletas', 'es')[0]?.subject.name).toBe('bicycle');
    expect(findSubjects('Fahrräder und Honigbienen', 'de').map((match) => match.subject.name)).toEqual(
      expect.arrayContaining(['bicycle', 'honeybee']),
    );
  });

  it('finds names inside Japanese and Hindi text, but not a shorter name inside a longer one', () => {
    expect(findSubjects('自転車に乗る', 'ja')[0]?.subject.name).toBe('bicycle');
    expect(findSubjects('自転車に乗る', 'ja').map((match) => match.subject.name)).not.toContain('automobile');
    expect(findSubjects('मैंने साइकिल चलाई', 'hi')[0]?.subject.name).toBe('bicycle');
    // A lone kanji counts only as a word of its own: 家 is a house, 専門家 an expert.
    expect(findSubjects('家に帰る', 'ja')[0]?.subject.name).toBe('house');
    expect(findSubjects('専門家に聞く', 'ja').map((match) => match.subject.name)).not.toContain('house');
  });

  it('does not take everyday words for subjects', () => {
    expect(findSubjects('How and why it still matters', 'en')).toEqual([]);
    // A verb's -ing form is no thing, unless the annotations name the thing so.
    expect(findSubjects('Bees watching the dance', 'en').map((match) => match.subject.name)).not.toContain('watch');
    expect(findSubjects('Bees watching the dance', 'en')[0]?.subject.name).toBe('honeybee');
    expect(findSubjects('a man running at dawn', 'en').map((match) => match.subject.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/running/)]),
    );
    expect(findSubjects('हिमालय कैसे बना', 'hi').map((match) => match.subject.name)).not.toContain('thumbs down');
  });

  it('takes a word for the subjects that spell it so, not for every subject its stem reaches', () => {
    // Spanish "cámara" and "cama" share the stem "cam": a magma chamber is no bed.
    const chamber = findSubjects('el magma se acumula en una cámara magmática', 'es').map((match) => match.subject.name);
    expect(chamber).not.toContain('bed');
    expect(chamber).toContain('camera');
    expect(findSubjects('una cama', 'es')[0]?.subject.name).toBe('bed');
    // Portuguese "água" (water) and "águia" (eagle) share a stem too.
    expect(findSubjects('bebe até 100 litros de água', 'pt').map((match) => match.subject.name)).not.toContain('eagle');
    expect(findSubjects('uma águia', 'pt')[0]?.subject.name).toBe('eagle');
  });
});
