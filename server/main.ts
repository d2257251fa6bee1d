import { createServer } from 'node:http';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { closeHttp, startRuntime, startWorker } from './runtime.js';

function configOrExit(): Readonly<Config> {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** `npm start`: migrations, the API and the job worker in one process. `--worker-only` skips the API. */
async function main(): Promise<void> {
  const config = configOrExit();
  const workerOnly = process.argv.includes('--worker-only');
  const runtime = await startRuntime(config);
  const { deps } = runtime;
  if (config.WORKER_ENABLED || workerOnly) await startWorker(deps);

  const server = workerOnly ? undefined : createServer(createApp(deps));
  if (server) {
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
    deps.log.info({ port: config.PORT, database: deps.database.kind }, 'listening');
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS + 5_000);
    force.unref();
    (async () => {
      if (server) await closeHttp(server, config.SHUTDOWN_TIMEOUT_MS);
      await runtime.close();
      deps.log.info('stopped');
      process.exit(0);
    })().catch((err: unknown) => {
      deps.log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
