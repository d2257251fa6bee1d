import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

/** The error `loadConfig(env)` throws, or a failure when it does not throw. */
export function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}
