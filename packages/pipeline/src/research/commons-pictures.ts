import type { PictureCandidate, PictureRequest } from '../providers/types.js';
import { fileTitle, freeLicence, pictureAttribution, plainText, type ExtMetadata } from './commons-licence.js';
import type { CommonsPicture, WikimediaClient } from './wikimedia-client.js';

/**
 * Commons pictures for one scene of a researched video. The candidates are the article's own
 * pictures (`prop=images`, its lead image among them) and Commons searches made of the scene's own
 * nouns, in the article's language, with the article's title; each is scored by how many of the
 * scene's words its file title, name and description carry. Relevance ranks above shape: a
 * portrait of the wrong lighthouse never beats a landscape of the tower the scene names; shape
 * (and the search's own rank) only orders pictures that say as much about the scene.
 */

/** A picture whose short side is below this would be blown up into blur. */
const MIN_PICTURE_SIDE = 320;
/** Scene words searched with the article's title: more makes CirrusSearch (which ANDs them) find nothing. */
const NOUNS_PER_QUERY = 2;

/** Words that say nothing about what a picture shows, in the narration languages written with spaces. */
const STOP_WORDS = new Set(
  (
    'a about after also an and are as at be because been before being between both but by can could did do does during each ' +
    'for from had has have he her his how however if in into is it its just like made make many may more most much must new ' +
    'not now of often on once one only or other over same she since so some such than that the their them then there these they ' +
    'this those though through thus to too two under until upon very was were what when where which while who why will with ' +
    'within without would year years first second third later still called known part used became become ' +
    'aber alle als also am an auch auf aus bei beim bis da damit dann das dass dem den denn der des die dies diese diesem diesen ' +
    'dieser dieses doch dort durch ein eine einem einen einer eines er es etwa für gegen hat hatte hatten hier im in ins ist jahr ' +
    'jahre jahren kann kein keine man mehr mit nach nicht noch nur ob oder ohne schon sehr sein seine seinen seiner sich sie sind ' +
    'so soll über um und unter viel vom von vor war waren was weil wenn wie wieder wird wurde wurden zu zum zur zwei drei später ' +
    'al algo como con cual cuando del desde donde durante el ella ellos en entre era eran es esa ese eso esta este esto fue fueron ' +
    'ha había han hasta hay la las le les lo los más muy no nos otra otro para pero por porque que quien se ser si sin sobre son ' +
    'su sus también tiene todo todos tras un una uno unos año años cada puede según aunque así llama llaman llamado ' +
    'au aux avec avait avant ce cela ces cet cette comme dans de des donc dont du elle elles encore est et été être fait il ils ' +
    'leur leurs lui mais même ne ni notre nous ont ou où par pas peu peut plus pour qu qui sa sans ses son sont sous sur tous tout ' +
    'toute très une année années aussi alors depuis fut était avoir faire bien pendant puis ensuite ' +
    'ao aos até da das dela dele do dos ela ele eles em essa esse esta este foi foram isso isto já mais mas mesmo muito na nas nem ' +
    'no nós os pela pelo pelos porque quando sem seu seus sua suas tem ter uma ano anos'
  ).split(' '),
);

/** Lower-case, accent-free words (a description's "Volcán" meets a scene's "volcan"). */
export function pictureWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word) && !/^\d+$/.test(word));
}

/** Same word or one an inflection or compound part of the other ("lighthouses"/"lighthouse", "kiemenherzen"/"herzen"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  return (long.startsWith(short) && long.length - short.length <= 3) || (short.length >= 5 && long.endsWith(short));
}

interface SceneNoun {
  /** As the scene writes it ("Smeaton", "Kiemenherzen"): what a search sends. */
  text: string;
  /** As pictures are compared with it (pictureWords). */
  key: string;
  /** Capitalised inside a sentence: a name, or a German noun. */
  name: boolean;
}

function sceneNounList(sceneText: string, articleTitle: string): SceneNoun[] {
  const titleWords = pictureWords(articleTitle);
  const seen = new Map<string, SceneNoun & { order: number }>();
  let order = 0;
  for (const sentence of sceneText.normalize('NFC').split(/(?<=[.!?…。:;])\s+/u)) {
    sentence.split(/[^\p{L}\p{N}'’-]+/u).forEach((raw, position) => {
      const text = raw.replace(/['’]s$/u, '').replace(/^[-'’]+|[-'’]+$/gu, '');
      const [key] = pictureWords(text);
      order += 1;
      if (!key || key.length < 4 || titleWords.some((title) => sameWord(title, key))) return;
      // The first word of a sentence is capitalised whatever it is.
      const name = position > 0 && /^\p{Lu}/u.test(text);
      const known = seen.get(key);
      if (known) known.name ||= name;
      else seen.set(key, { text, key, name, order });
    });
  }
  return [...seen.values()].sort((a, b) => Number(b.name) - Number(a.name) || b.key.length - a.key.length || a.order - b.order);
}

/**
 * The scene's nouns, best first: names first (a capitalised word inside a sentence: "Smeaton",
 * "Fresnel"), then the longer, rarer words; never the article title's own words (the title is added
 * to every search) and never a word of the stop lists. Written in the narration's language, so a
 * French scene searches "fer", "construction", not the painter's English subjects.
 */
export function sceneNouns(sceneText: string, articleTitle: string): string[] {
  return sceneNounList(sceneText, articleTitle).map((noun) => noun.text);
}

/** The Commons searches for a scene: its two best nouns with the title, its best noun with the title, then the title. */
export function sceneQueries(sceneText: string, articleTitle: string): string[] {
  const title = articleTitle.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  const nouns = sceneNouns(sceneText, title);
  return [
    ...new Set([
      nouns.length >= NOUNS_PER_QUERY ? `${nouns.slice(0, NOUNS_PER_QUERY).join(' ')} ${title}` : '',
      nouns[0] ? `${nouns[0]} ${title}` : '',
      title,
    ]),
  ].filter(Boolean);
}

const metadataText = (metadata: ExtMetadata, name: string): string => {
  const value = metadata[name]?.value;
  return typeof value === 'string' ? plainText(value) : '';
};

/** What a picture says it shows: its file title, its name and its description (and categories). */
export function pictureText(picture: Pick<CommonsPicture, 'fileName' | 'metadata'>): string {
  return [
    fileTitle(picture.fileName),
    metadataText(picture.metadata, 'ObjectName'),
    metadataText(picture.metadata, 'ImageDescription'),
    metadataText(picture.metadata, 'Categories').replaceAll('|', ' '),
  ].join(' ');
}

/**
 * How much a picture says about a scene: each of the scene's words its text carries counts 1 (a
 * name counts 2: "Smeaton" says more than "design"), the article's title words half (a picture the
 * article itself shows is about its subject, whatever its file is called).
 */
export function relevance(
  picture: Pick<CommonsPicture, 'fileName' | 'metadata'>,
  sceneText: string,
  articleTitle: string,
  fromArticle = false,
): number {
  const words = [...new Set(pictureWords(pictureText(picture)))];
  const carries = (word: string) => words.some((candidate) => sameWord(candidate, word));
  let score = 0;
  for (const noun of sceneNounList(sceneText, articleTitle)) if (carries(noun.key)) score += noun.name ? 2 : 1;
  for (const word of new Set(pictureWords(articleTitle))) if (fromArticle || carries(word)) score += 0.5;
  return score;
}

const aspectDistance = (picture: Pick<CommonsPicture, 'width' | 'height'>, width: number, height: number): number =>
  Math.abs(Math.log(picture.width / picture.height / (width / height)));

export interface RankedPicture {
  picture: CommonsPicture;
  relevance: number;
  /** The article shows this picture itself. */
  fromArticle: boolean;
}

/**
 * The candidates worth showing, best first: free, big enough, not yet used; ordered by relevance
 * to the scene, an article's own picture before a search's at equal relevance, and only then by
 * shape (a picture that loses most of itself to the crop, a panorama in 9:16, goes after one that
 * suits the frame) and the search's rank.
 */
export function rankPictures(
  candidates: readonly { picture: CommonsPicture; fromArticle: boolean; rank: number; lead?: boolean }[],
  request: Pick<PictureRequest, 'sceneText' | 'article' | 'width' | 'height' | 'avoidFiles'>,
): RankedPicture[] {
  const seen = new Set<string>();
  return candidates
    .filter(({ picture }) => {
      if (seen.has(picture.fileName)) return false;
      seen.add(picture.fileName);
      return (
        !request.avoidFiles.has(picture.fileName) &&
        Math.min(picture.width, picture.height) >= MIN_PICTURE_SIDE &&
        freeLicence(picture.metadata) !== null
      );
    })
    .map(({ picture, fromArticle, rank, lead }) => {
      const score = relevance(picture, request.sceneText, request.article.title, fromArticle);
      // Relevance in whole steps outweighs any shape: then the article's own pictures (its lead image,
      // the one that represents it, above all); the shape and the rank only break ties.
      const order =
        score * 10 +
        (fromArticle ? 4 : 0) +
        (lead ? 2 : 0) -
        Math.min(aspectDistance(picture, request.width, request.height), 2) * 3 -
        rank * 0.05;
      return { picture, fromArticle, relevance: score, order };
    })
    .sort((a, b) => b.order - a.order)
    .map(({ picture, fromArticle, relevance: score }) => ({ picture, fromArticle, relevance: score }));
}

/** Every candidate for the scene, ranked: the article's own pictures and the scene's searches, asked at once. */
export async function findScenePictures(
  client: WikimediaClient,
  request: PictureRequest,
  signal: AbortSignal,
): Promise<PictureCandidate[]> {
  const { article } = request;
  const lead = article.leadImage?.replaceAll('_', ' ');
  const articlePictures = async () => {
    const files = await client.articleImages(article.title, article.language, signal).catch(() => [] as string[]);
    const names = lead && !files.some((file) => file.replace(/^[^:]+:/, '') === lead) ? [`File:${lead}`, ...files] : files;
    return client.picturesByName(names, request.width, signal);
  };
  const searches = sceneQueries(request.sceneText, article.title).map((query) =>
    client.searchPictures(query, request.width, signal).catch(() => [] as CommonsPicture[]),
  );
  const [own, ...found] = await Promise.all([articlePictures().catch(() => [] as CommonsPicture[]), ...searches]);
  const candidates = [
    ...own.map((picture, rank) => ({ picture, fromArticle: true, rank, lead: picture.fileName === `File:${lead}` })),
    ...found.flatMap((pictures) => pictures.map((picture, rank) => ({ picture, fromArticle: false, rank }))),
  ];
  return rankPictures(candidates, request).map(({ picture, relevance: score }) => ({
    fileName: picture.fileName,
    relevance: score,
    downloadUrl: picture.downloadUrl,
    attribution: pictureAttribution(picture, freeLicence(picture.metadata)!),
  }));
}
