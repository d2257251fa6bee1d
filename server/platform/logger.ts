import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'bms' },
    timestamp: pino.stdTimeFunctions.isoTime,
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
  });
}
