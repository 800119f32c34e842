import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { handleShutdownSignals } from './operations/shutdown-signals.js';

function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Reelsmith cannot start.\n${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  await app.listen({ host: config.host, port: config.port });
  console.log(`Reelsmith is running at ${displayUrl(config.host, config.port)}`);

  // Draining: GET /ready answers 503 at once; close() stops listening, answers requests that arrive
  // on open keep-alive connections with 503, lets in-flight ones finish and hands running jobs back
  // to the queue at their last checkpoint (the next start resumes them). Past the grace, exit anyway.
  handleShutdownSignals({
    graceSeconds: config.shutdownGraceSeconds,
    log: app.log,
    drain: async () => {
      app.startDraining();
      await app.close();
    },
  });
}

main().catch((error: unknown) => {
  console.error('Reelsmith failed to start:', error);
  process.exit(1);
});
