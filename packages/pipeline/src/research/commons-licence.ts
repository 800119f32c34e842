import type { Attribution } from '@reelsmith/contracts';
import { Parser } from 'htmlparser2';

/**
 * Which Commons pictures a video may show, and how each is credited. Only licences that let anyone
 * reuse the picture in a video with a credit are taken: CC0, public domain (`pd…`, and `cc-pd`, the
 * Public Domain Mark), CC BY and CC BY-SA (any version or port). Non-commercial (NC) and
 * no-derivatives (ND) licences, "fair use" files, files Commons marks NonFree, files with no licence
 * at all, and files whose `Restrictions` name a non-copyright restriction (trademarks, personality
 * rights, official insignia: free to copy, not free to put into an advert-like video) are never used.
 */

/** One extmetadata field as the API sends it (`{ value, source, hidden }`); only the value matters here. */
export type ExtMetadata = Record<string, { value?: unknown } | undefined>;

export interface FreeLicence {
  /** As a credit shows it: "CC BY-SA 4.0", "CC0", "Public domain". */
  license: string;
  licenseUrl?: string;
}

const field = (metadata: ExtMetadata, name: string): string => {
  const value = metadata[name]?.value;
  return typeof value === 'string' ? plainText(value) : typeof value === 'number' ? String(value) : '';
};

/** Commons' machine-readable licence codes (`License`): cc0, pd, pd-old-70, cc-by-4.0, cc-by-sa-3.0-de… */
const FREE_CODE = /^(?:cc0(?:-1\.0)?|pd(?:-[a-z0-9.-]+)?|cc-pd(?:m)?(?:-1\.0)?|cc-by(?:-sa)?-\d(?:\.\d)?(?:-[a-z]{2,})?)$/;
/** The short names editors write (`LicenseShortName`) when the code is missing: "CC BY-SA 2.5", "Public domain". */
const FREE_SHORT_NAME = /^(?:cc0(?: 1\.0)?|public domain(?: mark)?|pd|cc[ -]by(?:[ -]sa)? \d(?:\.\d)?(?: [a-z]{2,})?)$/i;
/** Anything restricted, whatever the rest of the name says. */
const RESTRICTED = /(?:^|[\s-])(?:nc|nd)(?:[\s-]|$)|non-?commercial|no-?deriv|fair[\s-]?use|non-?free/i;

/**
 * Commons' `Restrictions` field lists the {{Trademarked}}, {{Personality rights}} and {{Insignia}}
 * templates a file page carries (as "trademarked", "personality", "insignia"): the copyright licence
 * is free, but the law on marks, on a person's likeness or on official emblems is not waived by it.
 */
const NON_COPYRIGHT_RESTRICTION = /trademark|personality|insignia/i;

const isTrue = (value: string): boolean => value !== '' && !/^(?:false|0|no)$/i.test(value);

/** The picture's licence when it is one a video may use, else null. */
export function freeLicence(metadata: ExtMetadata): FreeLicence | null {
  if (isTrue(field(metadata, 'NonFree'))) return null;
  if (NON_COPYRIGHT_RESTRICTION.test(field(metadata, 'Restrictions'))) return null;
  const code = field(metadata, 'License').toLowerCase();
  const shortName = field(metadata, 'LicenseShortName');
  const usageTerms = field(metadata, 'UsageTerms');
  if (!code && !shortName) return null;
  if ([code, shortName, usageTerms].some((text) => RESTRICTED.test(text))) return null;
  const free = (code !== '' && FREE_CODE.test(code)) || (shortName !== '' && FREE_SHORT_NAME.test(shortName));
  if (!free) return null;
  const license = shortName || licenceName(code);
  const licenseUrl = field(metadata, 'LicenseUrl');
  return { license, ...(/^https?:\/\//.test(licenseUrl) ? { licenseUrl } : {}) };
}

/** "cc-by-sa-4.0" → "CC BY-SA 4.0"; "pd" → "Public domain". */
function licenceName(code: string): string {
  if (code.startsWith('pd') || code.startsWith('cc-pd')) return 'Public domain';
  if (code.startsWith('cc0')) return 'CC0';
  const match = /^cc-(by(?:-sa)?)-(\d(?:\.\d)?)/.exec(code);
  return match ? `CC ${match[1]!.toUpperCase()} ${match[2]}` : code;
}

/** Text of an HTML fragment (Commons' Artist field is a link, often with markup around the name). */
export function plainText(html: string): string {
  let text = '';
  const parser = new Parser({ ontext: (chunk) => (text += chunk) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}

/** "File:Octopus vulgaris 2.jpg" → "Octopus vulgaris 2". */
export function fileTitle(fileName: string): string {
  return fileName
    .replace(/^(?:File|Datei|Fichier|Archivo|Ficheiro|Arquivo|चित्र|ファイル):/i, '')
    .replace(/\.[a-z0-9]+$/i, '')
    .trim();
}

export interface CommonsPictureMetadata {
  /** The file page's name, "File:….jpg". */
  fileName: string;
  /** The file's page on Commons. */
  pageUrl: string;
  metadata: ExtMetadata;
}

/** Only a web address may be a credit's link: a `javascript:` or `data:` one must never reach the API, MCP or webhooks. */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

const commonsPage = (fileName: string) =>
  `https://commons.wikimedia.org/wiki/${encodeURIComponent(fileName.replaceAll(' ', '_')).replaceAll('%3A', ':')}`;

/**
 * The credit a picture's licence asks for: its title, author, licence and its Commons page. The
 * author is `Artist` as text (`Credit` holds the source, "Own work", never the author); where the
 * licence requires attribution and the file page states it (`Attribution`, e.g. "© Ana Reef / CC BY-SA
 * 4.0"), that text is what the credit shows, as the licence asks it to be given.
 */
export function pictureAttribution(picture: CommonsPictureMetadata, licence: FreeLicence): Attribution {
  const required = isTrue(field(picture.metadata, 'AttributionRequired'));
  const stated = required ? field(picture.metadata, 'Attribution') : '';
  const author = stated || field(picture.metadata, 'Artist');
  const title = field(picture.metadata, 'ObjectName') || fileTitle(picture.fileName);
  return {
    kind: 'image',
    title,
    ...(author ? { author: author.slice(0, 200) } : {}),
    license: licence.license,
    ...(licence.licenseUrl ? { licenseUrl: licence.licenseUrl } : {}),
    sourceUrl: isWebUrl(picture.pageUrl) ? picture.pageUrl : commonsPage(picture.fileName),
  };
}

/** Wikipedia's text is CC BY-SA 4.0: the article is credited by its title and address. */
export const WIKIPEDIA_TEXT_LICENCE: FreeLicence = {
  license: 'CC BY-SA 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
};

export function articleAttribution(article: { title: string; url: string }): Attribution {
  return {
    kind: 'text',
    title: article.title,
    author: 'Wikipedia contributors',
    license: WIKIPEDIA_TEXT_LICENCE.license,
    licenseUrl: WIKIPEDIA_TEXT_LICENCE.licenseUrl!,
    // The client keeps only web addresses; an article kept by an older run is checked again here.
    sourceUrl: isWebUrl(article.url)
      ? article.url
      : `https://www.wikipedia.org/wiki/${encodeURIComponent(article.title.replaceAll(' ', '_'))}`,
  };
}
