/**
 * Articles the fake Wikipedia serves, written for these tests (no Wikipedia text is copied): each
 * reads like a short encyclopaedia article, with a lead, sections and a reference section that the
 * client must drop.
 */

export interface FakeArticle {
  language: string;
  title: string;
  /** The extract as `explaintext` with `exsectionformat=wiki` sends it. */
  extract: string;
  /** The article's lead picture (pageimages), a Commons file name with underscores. */
  pageimage?: string;
  disambiguation?: boolean;
}

export const FAKE_ARTICLES: FakeArticle[] = [
  {
    language: 'en',
    title: 'Octopus',
    pageimage: 'Common_octopus_on_a_reef.jpg',
    extract: `An octopus is a soft-bodied, eight-limbed mollusc of the order Octopoda. Octopuses live in every ocean, from warm coral reefs to the cold deep sea. They have no internal or external skeleton, so an octopus can squeeze through any gap larger than its beak.

== Anatomy ==
An octopus has three hearts. Two branchial hearts pump blood through each of the two gills, while the third heart pumps blood through the rest of the body. The systemic heart stops beating when the animal swims, which is one reason octopuses prefer crawling to swimming. Octopus blood contains the copper-rich protein haemocyanin, which makes it blue. Haemocyanin carries oxygen better than haemoglobin in cold water with little oxygen.

== Intelligence ==
Octopuses are among the most intelligent invertebrates. They can solve puzzles, open jars and learn by watching other octopuses. About two thirds of an octopus's neurons sit in its arms, so each arm can taste and touch on its own.

== Camouflage ==
Special skin cells called chromatophores let an octopus change colour in a fraction of a second. Muscles in the skin can also change its texture to match rocks, sand or coral. When threatened, many octopuses squirt a cloud of dark ink and escape by jet propulsion.

== Life cycle ==
Most octopuses live only one or two years. A female lays thousands of eggs and guards them without eating until they hatch, and she usually dies soon after.

== See also ==

== References ==
`,
  },
  {
    language: 'de',
    title: 'Kraken',
    pageimage: 'Common_octopus_on_a_reef.jpg',
    extract: `Kraken sind weichhäutige Weichtiere mit acht Armen aus der Ordnung Octopoda. Sie leben in allen Meeren, von warmen Korallenriffen bis in die kalte Tiefsee. Kraken haben kein Skelett und können sich deshalb durch jede Öffnung zwängen, die größer ist als ihr Schnabel.

== Körperbau ==
Ein Krake hat drei Herzen. Zwei Kiemenherzen pumpen das Blut durch die beiden Kiemen, das dritte Herz versorgt den übrigen Körper. Das Körperherz hört beim Schwimmen auf zu schlagen, deshalb krabbeln Kraken lieber, als zu schwimmen. Das Blut der Kraken enthält den kupferhaltigen Farbstoff Hämocyanin und ist darum blau.

== Intelligenz ==
Kraken gehören zu den klügsten wirbellosen Tieren. Sie lösen Rätsel, öffnen Schraubgläser und lernen, indem sie anderen Kraken zusehen. Etwa zwei Drittel ihrer Nervenzellen liegen in den Armen.

== Tarnung ==
Besondere Hautzellen erlauben es einem Kraken, in Sekundenbruchteilen die Farbe zu wechseln. Bei Gefahr stoßen viele Kraken eine Wolke aus dunkler Tinte aus und fliehen mit einem Rückstoß.

== Einzelnachweise ==
`,
  },
  {
    language: 'en',
    title: 'Lighthouse',
    pageimage: 'Lighthouse_at_dusk.jpg',
    extract: `A lighthouse is a tower built to send out light from a system of lamps and lenses to guide ships at sea. Lighthouses mark dangerous coastlines, hazardous shoals and reefs, and safe entries to harbours.

== History ==
The Lighthouse of Alexandria, built in the third century BC, was one of the Seven Wonders of the Ancient World. Early lighthouses burned wood or coal in open fires at the top of the tower. Later keepers used oil lamps with polished reflectors to make the light carry further.

== The Fresnel lens ==
In 1822 the French physicist Augustin Fresnel designed a lens made of many rings of glass prisms. The Fresnel lens bent scattered light into one strong beam that could be seen more than twenty miles away. It was thinner and lighter than a solid lens of the same power, and it was soon fitted to lighthouses around the world.

== Keepers ==
For centuries lighthouse keepers lived at the towers, trimming wicks and winding the clockwork that turned the lens. Today almost all lighthouses are automated, and many have become museums.

== References ==
`,
  },
  {
    language: 'en',
    title: 'Volcano',
    pageimage: 'Erupting_volcano_panorama.jpg',
    extract: `A volcano is an opening in the crust of a planet through which molten rock, ash and gases escape from below the surface. On Earth most volcanoes form where tectonic plates pull apart or push together.

== Eruptions ==
Molten rock below the surface is called magma, and once it erupts it is called lava. Runny basalt lava flows far and builds broad shield volcanoes such as those of Hawaii. Thick, sticky magma traps gas and can explode violently, throwing ash high into the sky.

== Effects ==
Large eruptions can cool the whole planet for a year or more, because ash and sulphur gases block sunlight. Volcanic ash also makes soil very fertile, which is why many farms lie on the slopes of active volcanoes.

== Monitoring ==
Scientists watch volcanoes with seismometers, gas sensors and satellites. Small earthquakes and a swelling of the ground often warn that magma is rising.

== External links ==
`,
  },
  {
    language: 'en',
    title: 'Honey bee',
    extract: `A honey bee is a flying insect of the genus Apis that lives in large colonies and makes honey from the nectar of flowers. Honey bees are kept by beekeepers all over the world for their honey and wax, and they pollinate many crops.

== Colony ==
A colony has one queen, thousands of female workers and, in summer, a few hundred male drones. The queen lays all the eggs, while the workers build the comb, feed the young and gather food.

== Waggle dance ==
A forager that has found rich flowers returns to the hive and performs the waggle dance on the vertical comb. She runs in a straight line while shaking her body, then circles back and repeats the run. The angle of the straight run from the vertical tells the other bees the direction of the flowers relative to the sun. The length of the waggle run tells them the distance: the longer she waggles, the further away the food is. For flowers close to the hive the forager performs a round dance instead, which says only that food is near. Karl von Frisch decoded the dance and shared the 1973 Nobel Prize in Physiology or Medicine for this work.

== Other signals ==
Bees also pass on the scent of the flowers they have visited, and they exchange food mouth to mouth. The smell tells the recruits which flowers to look for once they arrive.

== See also ==

== References ==
`,
  },
  {
    language: 'es',
    title: 'Volcán',
    extract: `Un volcán es una abertura en la corteza terrestre por la que salen magma, cenizas y gases del interior de la Tierra. Los volcanes se encuentran en todos los continentes y también en el fondo del mar.

== Formación ==
Los volcanes se forman donde la roca del manto se funde y el magma asciende hacia la superficie. El magma es menos denso que la roca que lo rodea, por eso sube y se acumula en una cámara magmática. Cuando la presión de los gases supera la resistencia de la roca, el magma sale por una chimenea y se produce una erupción. Con cada erupción, la lava y la ceniza se enfrían y se acumulan alrededor de la boca, y así el volcán crece capa a capa.

== Dónde se forman ==
La mayoría de los volcanes se forman en los límites de las placas tectónicas. En las zonas de subducción una placa se hunde bajo otra, se funde y alimenta volcanes explosivos como los de los Andes. En las dorsales oceánicas las placas se separan y el magma sale de forma tranquila. Otros volcanes, como los de Hawái, nacen sobre un punto caliente del manto, lejos de los bordes de las placas.

== Referencias ==
`,
  },
  {
    language: 'en',
    title: 'Mercury',
    disambiguation: true,
    extract: `Mercury may refer to:
Mercury (planet), the planet nearest the Sun
Mercury (element), a chemical element
Mercury (mythology), a Roman god`,
  },
];
