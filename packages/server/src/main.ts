import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

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

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    closing = true;
    // Draining: GET /ready answers 503 at once; close() stops listening, answers requests that arrive
    // on open keep-alive connections with 503, lets in-flight ones finish and hands running jobs back
    // to the queue at their last checkpoint (the next start resumes them). Past the grace, exit anyway.
    app.startDraining();
    app.log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'draining, then shutting down');
    setTimeout(() => {
      app.log.error({ graceSeconds: config.shutdownGraceSeconds }, 'shutdown grace is over: exiting with work unfinished');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error('Reelsmith failed to start:', error);
  process.exit(1);
});
