import { initContract, type AppRouter } from '@ts-rest/core';

/*
 * How the API mounts its routers, in a module of its own: a client of one domain (the dashboard's
 * sign-in page needs only `auth`) mounts that domain as `contract` does without loading the others.
 */

/** Every route under /v1, declaring every status it returns. */
export const V1 = { pathPrefix: '/v1', strictStatusCodes: true } as const;

/**
 * The builder that mounts routers (`c.router({ auth: authContract }, V1)`). Annotated so that the
 * declaration files name types instead of spelling them out (the spelt-out type of the whole
 * contract is longer than the compiler will write).
 */
export const c: ReturnType<typeof initContract> = initContract();

/** A domain router as the API serves it: under /v1, declaring every status it returns. */
export type Mounted<R extends AppRouter> = ReturnType<typeof c.router<R, '/v1', typeof V1>>;
