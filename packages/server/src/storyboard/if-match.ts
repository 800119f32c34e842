/**
 * Whether an `If-Match` header lets a write replace the version tagged `revision` (RFC 9110 §13.1.1):
 * `*` matches any stored storyboard; otherwise one of its comma-separated entity tags must equal the
 * quoted revision under strong comparison, so a weak tag (W/"…") never matches.
 */
export function ifMatchAllows(header: string | string[], revision: string): boolean {
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return true;
  const tags = value.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => tag === `"${revision}"`);
}
