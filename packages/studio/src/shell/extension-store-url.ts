/**
 * Used when VITE_EXTENSION_STORE_URL is not set: the store's search for the product. Apart from the
 * banner, which loads only on desktop Chrome, so the web host can name it without loading the banner.
 */
export const DEFAULT_EXTENSION_STORE_URL = 'https://chromewebstore.google.com/search/Reelsmith';
