/** Downloads `href` as `filename` through a hidden link (the way a browser lets a page start a download). */
export function clickDownloadLink(href: string, filename: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Downloads what the page holds (a zip made here, a caption file the API answered) as `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  clickDownloadLink(url, filename);
  // The browser has read the object long before a minute is up.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
