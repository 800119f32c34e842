import { attributionsText } from '@reelsmith/contracts';
import { describe, expect, it } from 'vitest';
import {
  articleAttribution,
  fileTitle,
  freeLicence,
  isWebUrl,
  pictureAttribution,
  plainText,
  type ExtMetadata,
} from './commons-licence.js';

const meta = (fields: Record<string, string>): ExtMetadata =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, { value, source: 'commons-desc-page' }]));

describe('freeLicence', () => {
  it.each([
    [{ License: 'cc0', LicenseShortName: 'CC0' }, 'CC0'],
    [{ License: 'pd', LicenseShortName: 'Public domain' }, 'Public domain'],
    [{ License: 'pd-old-70' }, 'Public domain'],
    [{ License: 'cc-by-2.0', LicenseShortName: 'CC BY 2.0' }, 'CC BY 2.0'],
    [{ License: 'cc-by-sa-4.0', LicenseShortName: 'CC BY-SA 4.0' }, 'CC BY-SA 4.0'],
    [{ License: 'cc-by-sa-3.0-de', LicenseShortName: 'CC BY-SA 3.0 de' }, 'CC BY-SA 3.0 de'],
    [{ License: 'cc-by-sa-4.0' }, 'CC BY-SA 4.0'],
    [{ LicenseShortName: 'CC BY 1.0' }, 'CC BY 1.0'],
    // The Public Domain Mark: Commons' code is cc-pd.
    [{ License: 'cc-pd' }, 'Public domain'],
    [{ License: 'cc-pd', LicenseShortName: 'Public domain' }, 'Public domain'],
  ])('takes %j as %s', (fields, name) => {
    expect(freeLicence(meta(fields))?.license).toBe(name);
  });

  it.each([
    ['non-commercial', { License: 'cc-by-nc-sa-4.0', LicenseShortName: 'CC BY-NC-SA 4.0' }],
    ['non-commercial by its short name only', { LicenseShortName: 'CC BY-NC 2.0' }],
    ['no derivatives', { License: 'cc-by-nd-2.0', LicenseShortName: 'CC BY-ND 2.0' }],
    ['fair use', { LicenseShortName: 'Fair use' }],
    ['marked NonFree', { License: 'cc-by-sa-4.0', LicenseShortName: 'CC BY-SA 4.0', NonFree: 'true' }],
    ['restricted in its usage terms', { License: 'cc-by-4.0', UsageTerms: 'Creative Commons Attribution-NonCommercial 4.0' }],
    ['without a licence', { Artist: 'Someone' }],
    ['under the GFDL only', { License: 'gfdl', LicenseShortName: 'GFDL' }],
    ['all rights reserved', { LicenseShortName: 'All rights reserved' }],
    ['trademarked', { License: 'cc-by-sa-4.0', Restrictions: 'trademarked' }],
    ['with personality rights', { License: 'cc0', Restrictions: 'personality' }],
    ['of official insignia', { License: 'pd', Restrictions: 'insignia|ngo' }],
  ])('refuses a picture %s', (_what, fields) => {
    expect(freeLicence(meta(fields))).toBeNull();
  });

  it('keeps the licence link only when it is a web address', () => {
    expect(freeLicence(meta({ License: 'cc-by-4.0', LicenseUrl: 'https://creativecommons.org/licenses/by/4.0/' }))).toEqual({
      license: 'CC BY 4.0',
      licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(freeLicence(meta({ License: 'cc-by-4.0', LicenseUrl: 'javascript:alert(1)' }))).toEqual({ license: 'CC BY 4.0' });
  });
});

describe('credits', () => {
  it("credits Artist, never Credit (the source), and the licence's own attribution text where it is required", () => {
    const credit = (fields: Record<string, string>) =>
      pictureAttribution(
        {
          fileName: 'File:Tower.jpg',
          pageUrl: 'https://commons.wikimedia.org/wiki/File:Tower.jpg',
          metadata: meta({ License: 'cc-by-4.0', ...fields }),
        },
        freeLicence(meta({ License: 'cc-by-4.0' }))!,
      ).author;
    expect(credit({ Credit: '<span class="int-own-work">Own work</span>' })).toBeUndefined();
    expect(credit({ Artist: '<a href="//x">Ana</a>', Credit: 'Own work' })).toBe('Ana');
    expect(credit({ Artist: 'Ana', AttributionRequired: 'true', Attribution: '© Ana Reef / <i>Museum</i>' })).toBe('© Ana Reef / Museum');
    expect(credit({ Artist: 'Ana', AttributionRequired: 'false', Attribution: 'Someone else' })).toBe('Ana');
  });

  it('links a credit only to a web address', () => {
    const metadata = meta({ License: 'cc0' });
    const picture = pictureAttribution(
      { fileName: 'File:Tower one.jpg', pageUrl: 'javascript:alert(1)', metadata },
      freeLicence(metadata)!,
    );
    expect(picture.sourceUrl).toBe('https://commons.wikimedia.org/wiki/File:Tower_one.jpg');
    expect(articleAttribution({ title: 'Tower', url: 'javascript:alert(1)' }).sourceUrl).toBe('https://www.wikipedia.org/wiki/Tower');
    expect(articleAttribution({ title: 'Tower', url: 'data:text/html,x' }).sourceUrl).toMatch(/^https:/);
    expect(isWebUrl('http://127.0.0.1:8080/en/wiki/Tower')).toBe(true);
  });

  it('strips the HTML from an author and decodes its entities', () => {
    expect(plainText('<a href="//commons.wikimedia.org/wiki/User:Ana">Ana <b>Reef</b></a> &amp;\n friends')).toBe('Ana Reef & friends');
    expect(fileTitle('File:Octopus vulgaris 2.jpg')).toBe('Octopus vulgaris 2');
  });

  it('credits a picture with its title, author, licence and Commons page', () => {
    const metadata = meta({
      License: 'cc-by-sa-4.0',
      LicenseShortName: 'CC BY-SA 4.0',
      LicenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
      Artist: '<span class="fn"><a href="//x">Ana Reef</a></span>',
    });
    const credit = pictureAttribution(
      { fileName: 'File:Common octopus.jpg', pageUrl: 'https://commons.wikimedia.org/wiki/File:Common_octopus.jpg', metadata },
      freeLicence(metadata)!,
    );
    expect(credit).toEqual({
      kind: 'image',
      title: 'Common octopus',
      author: 'Ana Reef',
      license: 'CC BY-SA 4.0',
      licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
      sourceUrl: 'https://commons.wikimedia.org/wiki/File:Common_octopus.jpg',
    });
    const article = articleAttribution({ title: 'Octopus', url: 'https://en.wikipedia.org/wiki/Octopus' });
    expect(attributionsText([article, credit])).toBe(
      [
        'Text: "Octopus" by Wikipedia contributors, CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), https://en.wikipedia.org/wiki/Octopus',
        'Picture: "Common octopus" by Ana Reef, CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), https://commons.wikimedia.org/wiki/File:Common_octopus.jpg',
      ].join('\n'),
    );
  });
});
