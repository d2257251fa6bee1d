import type { Server } from 'node:http';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { domains } from './domains.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { createHttpServer } from './platform/http.js';
import { mailDestination } from './platform/mail.js';
import { closeHttp, startRuntime, startWorker } from './platform/runtime.js';

/** A start-up failure whose message says it all: printed without a stack trace. */
class StartupError extends Error {}

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

/**
 * Binds the port before anything else, so a port in use stops start-up at once (before the
 * database is opened or migrated). Until the service is ready, requests are answered 503.
 */
async function bind(config: Readonly<Config>): Promise<Server> {
  const server = createHttpServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ status: 'starting' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `Port ${config.PORT} is already in use (HOST ${config.HOST}): stop what listens there, or set PORT`,
          ),
        );
      } else if (err.code === 'EACCES') {
        reject(new StartupError(`Port ${config.PORT} needs privileges this process does not have: set PORT`));
      } else reject(err);
    });
    server.listen(config.PORT, config.HOST, resolve);
  });
  return server;
}

const urlOf = (config: Readonly<Config>) =>
  `http://${['0.0.0.0', '::', ''].includes(config.HOST) ? 'localhost' : config.HOST}:${config.PORT}`;

/**
 * `npm start`: migrations, the API and the job worker in one process. `--worker-only` (`npm run
 * worker`) skips the API, `--api-only` the worker: each kind scales on its own (docs/scaling.md).
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const workerOnly = process.argv.includes('--worker-only');
  const apiOnly = process.argv.includes('--api-only');
  if (workerOnly && apiOnly) {
    throw new StartupError('--api-only and --worker-only exclude each other: give one');
  }
  if (apiOnly && !config.DATABASE_URL) {
    throw new StartupError(
      '--api-only needs DATABASE_URL: the embedded database is open to one process only, so no worker could run beside this one (leave --api-only out to run the API and the worker together)',
    );
  }
  const server = workerOnly ? undefined : await bind(config);
  const runtime = await startRuntime(config, domains);
  const { deps } = runtime;
  if (workerOnly || (config.WORKER_ENABLED && !apiOnly)) await startWorker(deps);
  deps.log.info({ smtp: Boolean(config.SMTP_URL) }, mailDestination(config));

  if (server) {
    server.removeAllListeners('request');
    server.on('request', createApp(deps));
    const url = urlOf(config);
    deps.log.info(
      { url, port: config.PORT, database: deps.database.kind },
      `listening on ${url} (API reference at ${url}/docs)`,
    );
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
  const plain = err instanceof StartupError || err instanceof DataDirLockedError;
  console.error(plain ? err.message : err);
  process.exit(1);
});
