// Transition shim, to be removed: the webhooks contract lives per resource, combined in ./index.ts.
export * from './index.js';
