// Transition shim, to be removed: the auth contract lives per resource, combined in ./index.ts.
export * from './index.js';
