/** What a request or socket hears when its credentials do not let it in: one wording wherever it is checked. */
export const INVALID_API_KEY_MESSAGE = 'Invalid API key';
export const API_KEY_REQUIRED_MESSAGE = 'This call needs an API key in the x-api-key header';
export const EMBED_SCOPE_MESSAGE = 'An embed session can only generate, list and read videos';
