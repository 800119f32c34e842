/** Local fake servers that speak the real providers' wire formats, and small media fixtures, for tests. */
export { type FakeHandler, type FakeServer, type RecordedRequest, type ScriptedResponse, startFakeHttpServer } from './fake-http-server.js';
export {
  chatCompletionResponse,
  type FakeOpenAiServer,
  type FakeOpenAiServerOptions,
  openAiError,
  startFakeOpenAiServer,
} from './fake-openai-server.js';
export {
  AZURE_ACCESS_DENIED,
  FAKE_AZURE_WORDS_PER_SECOND,
  type FakeAzureSpeechServerOptions,
  startFakeAzureSpeechServer,
} from './fake-azure-speech-server.js';
export { elevenLabsError, type FakeElevenLabsServerOptions, startFakeElevenLabsServer } from './fake-elevenlabs-server.js';
export { fakeAudio, type FakeAudioShape, fakePng, fakeVideo, ffmpegBinary } from './fake-media.js';
export {
  FAKE_STOCK_PHOTOS,
  FAKE_STOCK_VIDEOS,
  type FakeStockPhoto,
  type FakeStockServer,
  type FakeUnsplashServer,
  imgixSize,
  PHOTO_SCALE,
  startFakePexelsServer,
  startFakeUnsplashServer,
} from './fake-stock-photo-servers.js';
export {
  FAKE_ARTICLE_IMAGES,
  FAKE_COMMONS_FILES,
  type FakeCommonsFile,
  type FakeWikimediaMode,
  type FakeWikimediaServer,
  startFakeWikimediaServer,
  userAgentRefusal,
} from './fake-wikimedia-server.js';
export { FAKE_ARTICLES, type FakeArticle } from './fake-wikimedia-articles.js';
export {
  KOKORO_VOCAB,
  manifestFor,
  TINY_SAMPLES_PER_TOKEN,
  tinyKokoroConfigJson,
  tinyKokoroFiles,
  tinyKokoroOnnx,
  tinyKokoroTokenizerJson,
  tinyKokoroVoice,
  type TinyModelFile,
} from './tiny-kokoro-model.js';
export { type FakeModelHost, type ModelHostFault, startFakeModelHost } from './fake-model-host.js';
export { closedAfterTest, expectCancelledMidRequest, failureAfterThreeAttempts, rejectionOf } from './provider-test-kit.js';
export { placeholderImages } from './placeholder-images.js';
export { tempFoldersForFile } from './temp-folders.js';
