/**
 * Look-alike domains (TR39 "confusables" in practice): a label that mixes Latin letters with
 * letters of another script (pаypal.com with a Cyrillic а), a label written wholly in letters
 * that look Latin (раураl → all Cyrillic look-alikes), punycode spelled out (xn--), or characters
 * NFKC would fold (fullwidth ｅｘａｍｐｌｅ.com). Real internationalised domains in one script
 * (例え.jp, пример.рф) pass.
 */
const LATIN_LOOKALIKES = new Set([...'аеорсухіјѕԁһԛԝхуᴀʙϲԁеғɢһіјκʟмɴорԛгѕтυνԝхуᴢαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ']);

const scriptOf = (char: string): string | null => {
  if (/\p{Script=Latin}/u.test(char)) return 'Latin';
  if (/\p{Script=Cyrillic}/u.test(char)) return 'Cyrillic';
  if (/\p{Script=Greek}/u.test(char)) return 'Greek';
  if (/\p{L}/u.test(char)) return 'Other';
  return null;
};

export function isConfusableDomain(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (domain.normalize('NFKC') !== domain) return true;
  for (const label of domain.split('.')) {
    if (label.startsWith('xn--')) return true;
    const letters = [...label].filter((char) => scriptOf(char) !== null);
    const scripts = new Set(letters.map(scriptOf));
    if (scripts.has('Latin') && scripts.size > 1) return true;
    const nonAscii = letters.filter((char) => char.charCodeAt(0) > 0x7f);
    if (nonAscii.length > 0 && !scripts.has('Other') && nonAscii.every((char) => LATIN_LOOKALIKES.has(char))) return true;
  }
  return false;
}
