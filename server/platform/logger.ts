import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { DestinationStream, Logger };

type SerializedError = ReturnType<typeof stdSerializers.err>;

/**
 * An error as the log shows it. PGlite attaches the failed statement's parameter values to its
 * errors (`params`): the row being written, with personal data, password hashes and whatever
 * secret a caller put in a stored field. The SQL text (`query`) stays; the values never reach the
 * log, at any depth (nested and aggregated errors included).
 */
function withoutQueryValues(err: SerializedError, depth = 0): SerializedError {
  if (err === null || typeof err !== 'object') return err;
  delete (err as { params?: unknown }).params;
  if (depth >= 8) return err;
  for (const value of Object.values(err)) {
    const nested: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of nested) {
      if (item !== null && typeof item === 'object' && 'stack' in item) {
        withoutQueryValues(item as SerializedError, depth + 1);
      }
    }
  }
  return err;
}

/** The service's logger: JSON lines to stdout, or to `destination` (tests read them back). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'bms' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: (err: Error) => withoutQueryValues(stdSerializers.err(err)) },
    redact: {
      paths: [
        'password',
        '*.password',
        'authorization',
        '*.authorization',
        'token',
        '*.token',
        'key',
        '*.key',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
