import { startFakePublishingPlatforms } from './fake-publishing-platforms.js';

/**
 * The publishing fakes as a process of their own, for the end-to-end suite (a Playwright webServer):
 * Google + YouTube on FAKE_PUBLISHING_PORT, TikTok on the next port, Instagram on the one after.
 * The suite's server gets their addresses through its *_URL variables.
 */
const basePort = Number(process.env.FAKE_PUBLISHING_PORT ?? 9300);
const fakes = await startFakePublishingPlatforms(basePort);
process.stdout.write(`publishing fakes on ${fakes.google.url}, ${fakes.tiktok.url}, ${fakes.instagram.url}\n`);
const stop = () => void fakes.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
