import { describe, expect, it } from 'vitest';
import { sentenceCore } from './sentence-core.js';

describe('sentenceCore', () => {
  it('cuts an elaboration off: the explanation after a colon, an appositive, a relative clause, an aside', () => {
    expect(sentenceCore('The early walls were made of rammed earth: layers of soil pressed hard between wooden boards.', 'en')).toBe(
      'The early walls were made of rammed earth.',
    );
    expect(
      sentenceCore('Auroras are caused by the solar wind, a stream of electrically charged particles flowing out from the Sun.', 'en'),
    ).toBe('Auroras are caused by the solar wind.');
    expect(
      sentenceCore('A corcova não guarda água, como se pensava, mas gordura, que serve de reserva de energia quando falta comida.', 'pt'),
    ).toBe('A corcova não guarda água, como se pensava, mas gordura.');
    expect(sentenceCore('The work was done by soldiers, peasants and convicts, often hundreds of thousands at a time.', 'en')).toBe(
      'The work was done by soldiers, peasants and convicts.',
    );
    expect(sentenceCore('Watchtowers stood along the wall; guards sent warnings from tower to tower.', 'en')).toBe(
      'Watchtowers stood along the wall.',
    );
    expect(sentenceCore('En el centro se forma el ojo, una zona tranquila y a menudo despejada.', 'es')).toBe(
      'En el centro se forma el ojo.',
    );
  });

  it('keeps a coordinated clause, which is a fact of its own, and a "but" that qualifies the head', () => {
    expect(
      sentenceCore("Elle repose sur une couche d'argile, et ses fondations ne font que trois mètres de profondeur.", 'fr'),
    ).toBeUndefined();
    expect(sentenceCore('Sunlight looks white, but it is a mixture of all the colours of the rainbow.', 'en')).toBeUndefined();
  });

  it('never leaves a fragment: a subordinate clause, a short adverbial, a head under five words, an open quote', () => {
    expect(sentenceCore('When it rains for many days, the rivers rise over their banks.', 'en')).toBeUndefined();
    expect(sentenceCore('During the long winter months, the bears sleep in their dens.', 'en')).toBeUndefined();
    expect(sentenceCore('Bats are mammals, the only ones that fly.', 'en')).toBeUndefined();
    expect(
      sentenceCore('He called the wall "the longest cemetery on Earth, a grave for a million men" in his book.', 'en'),
    ).toBeUndefined();
  });

  it('tells the Portuguese article "A" from the preposition "a partir de"', () => {
    expect(sentenceCore('A cor verde vem da clorofila, o pigmento que capta a luz do sol.', 'pt')).toBe('A cor verde vem da clorofila.');
    expect(sentenceCore('A partir do século XIX, a cidade cresceu muito depressa.', 'pt')).toBeUndefined();
  });

  it('never cuts a tail set inside its sentence when the main clause goes on after it', () => {
    expect(sentenceCore('The Great Wall of China, a series of fortifications, was built over many centuries.', 'en')).toBeUndefined();
    expect(
      sentenceCore('The Eddystone lighthouse on its rock — a tapered stone tower — became the model for later ones.', 'en'),
    ).toBeUndefined();
    expect(sentenceCore('El huracán más fuerte de aquel año, el de octubre, causó enormes daños en la costa.', 'es')).toBeUndefined();
    // A preposition after the closing comma goes on with the predicate the head already has.
    expect(
      sentenceCore('A bat produces short, high-pitched calls, usually too high for people to hear, through its mouth or nose.', 'en'),
    ).toBe('A bat produces short, high-pitched calls.');
  });

  it('never cuts after a complex subordinator or an adverb before one: the head would be the opening clause alone', () => {
    expect(sentenceCore('From the time an echo takes to return, the bat judges how far away an object is.', 'en')).toBeUndefined();
    expect(sentenceCore('Shortly before midnight on 14 April, a lookout spotted an iceberg directly ahead.', 'en')).toBeUndefined();
    expect(sentenceCore('In July 1969 Apollo 11 put the first people on the Moon, the goal Kennedy had set.', 'en')).toBe(
      'In July 1969 Apollo 11 put the first people on the Moon.',
    );
  });

  it('never cuts a list to its first item', () => {
    expect(sentenceCore('Os beduínos usam o leite, a carne, a lã e o couro do camelo.', 'pt')).toBeUndefined();
    expect(
      sentenceCore('He planned a sea-level canal like Suez, but the mountains, the heavy rains and the floods made the work harder.', 'en'),
    ).toBeUndefined();
  });

  it('drops no contrast after an aside, which qualifies the head; an added fact may go', () => {
    expect(
      sentenceCore('Thousands have climbed it since, usually with Sherpa guides, but the thin air has killed hundreds.', 'en'),
    ).toBeUndefined();
    expect(
      sentenceCore(
        'The work was done by soldiers, peasants and convicts, often hundreds of thousands at a time, and many of them died.',
        'en',
      ),
    ).toBe('The work was done by soldiers, peasants and convicts.');
  });

  it('closes no aside set inside a coordination', () => {
    expect(
      sentenceCore('A colony has one queen, thousands of female workers and, in summer, a few hundred male drones.', 'en'),
    ).toBeUndefined();
  });

  it('cuts a German relative clause, which puts its verb last, but never a main clause that opens with an article', () => {
    expect(sentenceCore('Ausgelöst wird der Zug durch die kürzer werdenden Tage, die im Körper der Vögel Hormone verändern.', 'de')).toBe(
      'Ausgelöst wird der Zug durch die kürzer werdenden Tage.',
    );
    expect(
      sentenceCore('Zwei Kiemenherzen pumpen das Blut durch die beiden Kiemen, das dritte Herz versorgt den übrigen Körper.', 'de'),
    ).toBeUndefined();
    expect(
      sentenceCore('Kraken haben kein Skelett und können sich deshalb durch jede Öffnung zwängen, die größer ist als ihr Schnabel.', 'de'),
    ).toBeUndefined();
  });

  it('keeps a tail the telling needs', () => {
    const sentence = 'These molecules scatter short wavelengths much more strongly than long ones: blue light is scattered more.';
    expect(sentenceCore(sentence, 'en', (tail) => /blue/u.test(tail))).toBeUndefined();
    expect(sentenceCore(sentence, 'en')).toBe('These molecules scatter short wavelengths much more strongly than long ones.');
  });

  it('says nothing for a language it has no rules for', () => {
    expect(sentenceCore('灯台は船を導く、古い建物である。', 'ja')).toBeUndefined();
  });
});
