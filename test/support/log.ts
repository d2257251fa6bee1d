import { createLogger, type Logger } from '../../server/platform/logger.js';

/** The lines a captured logger wrote, as written. */
export interface CapturedLog {
  /** Pass as `useTestServer({ log })`. */
  log: Logger;
  lines: string[];
}

/**
 * The service's own logger (its level names and redaction) at its most verbose level, writing into
 * memory instead of stdout: what an operator's log would hold after the same requests.
 */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const log = createLogger('trace', { write: (line: string) => void lines.push(line) });
  return { log, lines };
}
