/** The environment of every test server: limits high enough that a test file never meets them unless it means to. */
export const TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  RATE_LIMITS: 'free:100,standard:100000,enterprise:100000',
  ANONYMOUS_RATE_LIMIT: '100000',
  REGISTER_RATE_LIMIT: '100000',
  DATA_DIR: 'memory://',
};
