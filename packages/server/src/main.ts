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
    app.log.info({ signal }, 'shutting down');
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
