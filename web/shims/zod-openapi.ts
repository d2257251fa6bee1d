/**
 * The dashboard's stand-in for `@anatine/zod-openapi`: the contract's schemas carry OpenAPI titles
 * and examples for openapi.json, which a browser never reads, so its bundle leaves them out.
 */
export const extendApi = <T>(schema: T, _metadata?: unknown): T => schema;
