import { describe, expect, it } from 'vitest';
import { englishTopicForm, englishTopicPhrase, fillSlots, quotedTopic, topicInSentence } from './slot-contractions.js';

describe('fillSlots', () => {
  it('merges a French preposition with the topic article at the seam only', () => {
    expect(fillSlots('On parle de {topic} depuis longtemps.', { topic: 'le Triangle des Bermudes' }, 'fr')).toBe(
      'On parle du Triangle des Bermudes depuis longtemps.',
    );
    expect(fillSlots('Grâce à {topic}.', { topic: 'les étoiles' }, 'fr')).toBe('Grâce aux étoiles.');
    expect(fillSlots('De {topic}, on sait peu.', { topic: 'les pyramides' }, 'fr')).toBe('Des pyramides, on sait peu.');
    expect(fillSlots('Essayer de le dire avec {topic}.', { topic: 'le vent' }, 'fr')).toBe('Essayer de le dire avec le vent.');
  });

  it('leaves topics without an article, and capitalised names, exactly as typed', () => {
    expect(fillSlots('parler de {topic}', { topic: 'Paris' }, 'fr')).toBe('parler de Paris');
    expect(fillSlots('lire de {topic}', { topic: 'Le Monde' }, 'fr')).toBe('lire de Le Monde');
    expect(fillSlots('la historia de {topic}', { topic: 'el Triángulo de las Bermudas' }, 'es')).toBe(
      'la historia del Triángulo de las Bermudas',
    );
    expect(fillSlots('a história de {topic} em {focus}', { topic: 'a lua', focus: 'os mares' }, 'pt')).toBe('a história da lua nos mares');
  });

  it('only fills slots in languages without contractions', () => {
    expect(fillSlots('the story of {topic}', { topic: 'the sea' }, 'en')).toBe('the story of the sea');
    expect(fillSlots('{topic} und {missing}', { topic: 'das Meer' }, 'de')).toBe('das Meer und {missing}');
  });
});

describe('topics typed as questions', () => {
  it('drops an English question word the topic repeats at the seam, and nothing else', () => {
    expect(fillSlots('It helps to know why {topic} matters.', { topic: 'why cats purr' }, 'en')).toBe(
      'It helps to know why cats purr matters.',
    );
    expect(fillSlots('You wondered how {topic} really works.', { topic: 'How volcanoes form' }, 'en')).toBe(
      'You wondered how volcanoes form really works.',
    );
    expect(fillSlots('Nobody knows why {topic}.', { topic: 'whyte' }, 'en')).toBe('Nobody knows why whyte.');
    expect(fillSlots('Parlons de {topic}.', { topic: 'de Gaulle et la France' }, 'fr')).toBe('Parlons de de Gaulle et la France.');
    expect(fillSlots('We know that {topic}.', { topic: 'that song' }, 'en')).toBe('We know that that song.');
  });

  it('lower-cases an English topic that opens with a question or function word, and nothing else', () => {
    expect(topicInSentence('Why octopuses have three hearts', 'en')).toBe('why octopuses have three hearts');
    expect(topicInSentence('The history of coffee', 'en')).toBe('the history of coffee');
    expect(topicInSentence('Paris in winter', 'en')).toBe('Paris in winter');
    expect(topicInSentence('THE BEATLES', 'en')).toBe('THE BEATLES');
    expect(topicInSentence('Die Geschichte des Kaffees', 'de')).toBe('Die Geschichte des Kaffees');
  });
});

describe('English topic forms', () => {
  it.each([
    ['volcanoes', 'phrase'],
    ['The day the music died', 'phrase'],
    ['Things that are older than trees', 'phrase'],
    ['Why octopuses have three hearts', 'question'],
    ['How to save money', 'question'],
    ['Is coffee bad for you?', 'yes-no question'],
    ['The first moon landing was almost a disaster.', 'sentence'],
    ['Octopuses have three hearts', 'sentence'],
    ['Cats rule the internet!', 'sentence'],
  ] as const)('reads %s as a %s', (topic, form) => {
    expect(englishTopicForm(topic)).toBe(form);
  });

  it('gives questions and sentences a noun phrase a sentence can go on from', () => {
    expect(englishTopicPhrase('volcanoes')).toBeNull();
    expect(englishTopicPhrase('Why octopuses have three hearts')).toBe('the question of why octopuses have three hearts');
    expect(englishTopicPhrase('Is coffee bad for you?')).toBe('the question "Is coffee bad for you?"');
    expect(englishTopicPhrase('The first moon landing was almost a disaster.')).toBe(
      'the story that the first moon landing was almost a disaster',
    );
  });

  it('uses the noun phrase only where the sentence goes on after the slot', () => {
    const slots = { topic: 'why cats purr', topicPhrase: 'the question of why cats purr' };
    expect(fillSlots('It helps to know why {topic} matters.', slots, 'en')).toBe(
      'It helps to know why the question of why cats purr matters.',
    );
    expect(fillSlots('To understand why {topic}, look closer.', slots, 'en')).toBe('To understand why cats purr, look closer.');
    expect(fillSlots('Remember {topic}.', slots, 'en')).toBe('Remember why cats purr.');
  });
});

describe('German articles at the seam', () => {
  it('drops a typed article after "Thema" and declines it after "von" and "über"', () => {
    expect(fillSlots('Beim Thema {topic} beginnen wir.', { topic: 'das Bermuda-Dreieck' }, 'de')).toBe(
      'Beim Thema Bermuda-Dreieck beginnen wir.',
    );
    expect(fillSlots('Wenn von {topic} die Rede ist.', { topic: 'das Bermuda-Dreieck' }, 'de')).toBe(
      'Wenn vom Bermuda-Dreieck die Rede ist.',
    );
    expect(fillSlots('Wenn von {topic} die Rede ist.', { topic: 'die Sonne' }, 'de')).toBe('Wenn von der Sonne die Rede ist.');
    expect(fillSlots('Die Geschichte über {topic}.', { topic: 'der Mond' }, 'de')).toBe('Die Geschichte über den Mond.');
    // A capitalised article belongs to a name.
    expect(fillSlots('Beim Thema {topic} beginnen wir.', { topic: 'Das Boot' }, 'de')).toBe('Beim Thema Das Boot beginnen wir.');
  });
});

describe('questions and sentences as topics in the other languages', () => {
  // Hand-written: how each language quotes a question or a statement so it reads as one noun.
  it.each([
    ['de', 'Warum haben Kraken drei Herzen?', '„Warum haben Kraken drei Herzen?“'],
    ['de', 'Die Erde ist rund.', '„Die Erde ist rund“'],
    ['es', '¿Por qué los pulpos tienen tres corazones?', '«¿Por qué los pulpos tienen tres corazones?»'],
    ['es', 'Cómo se formaron los volcanes', '«Cómo se formaron los volcanes»'],
    ['fr', 'Pourquoi les pieuvres ont trois cœurs', '« Pourquoi les pieuvres ont trois cœurs »'],
    ['pt', 'A Terra é redonda.', '“A Terra é redonda”'],
    ['hi', 'ऑक्टोपस के तीन दिल क्यों होते हैं', '“ऑक्टोपस के तीन दिल क्यों होते हैं”'],
    ['ja', '富士山はどうやってできたのか', '「富士山はどうやってできたのか」'],
  ] as const)('%s quotes %s', (language, topic, quoted) => {
    expect(quotedTopic(topic, language)).toBe(quoted);
  });

  it.each([
    ['de', 'das Bermuda-Dreieck'],
    ['es', 'los volcanes de Islandia'],
    ['fr', 'le Triangle des Bermudes'],
    ['pt', 'o Triângulo das Bermudas'],
    ['hi', 'गंगा नदी की कहानी'],
    ['ja', '富士山'],
    ['en', 'Why octopuses have three hearts'],
  ] as const)('leaves a %s phrase as it is: %s', (language, topic) => {
    expect(quotedTopic(topic, language)).toBeNull();
  });

  it("reads grammatically inside each language's templates", () => {
    expect(
      fillSlots('Um {topic} zu verstehen, müssen wir zurück.', { topic: quotedTopic('Warum haben Kraken drei Herzen?', 'de')! }, 'de'),
    ).toBe('Um „Warum haben Kraken drei Herzen?“ zu verstehen, müssen wir zurück.');
    expect(
      fillSlots('Pense em quem mais se importa com {topic} e por quê.', { topic: quotedTopic('A Terra é redonda.', 'pt')! }, 'pt'),
    ).toBe('Pense em quem mais se importa com “A Terra é redonda” e por quê.');
    expect(
      fillSlots('{topic}を理解するには、戻る必要があります。', { topic: quotedTopic('富士山はどうやってできたのか', 'ja')! }, 'ja'),
    ).toBe('「富士山はどうやってできたのか」を理解するには、戻る必要があります。');
  });
});
