/** Local fake servers that speak the real providers' wire formats, and small media fixtures, for tests. */
export * from './fake-http-server.js';
export * from './fake-openai-server.js';
export * from './fake-azure-speech-server.js';
export * from './fake-elevenlabs-server.js';
export * from './fake-media.js';
export * from './fake-stock-photo-servers.js';
export * from './fake-wikimedia-server.js';
export * from './fake-wikimedia-articles.js';
export * from './tiny-kokoro-model.js';
export * from './fake-model-host.js';
