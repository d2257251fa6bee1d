// Transition shim, to be removed: the loyalty contract lives per resource, combined in ./index.ts.
export * from './index.js';
export { LoyaltyPageQuerySchema } from './shared.js';
export {
  AdjustPointsBodySchema as AdjustBodySchema,
  type AdjustPointsBody as AdjustBody,
} from './transactions.js';
export {
  BulkEnrollMembersBodySchema as BulkEnrollBodySchema,
  type BulkEnrollMembersBody as BulkEnrollBody,
} from './members.js';
