import { writeFileSync } from 'node:fs';
import { renderOpenApiDocument } from '../contract/openapi.js';

writeFileSync(new URL('../openapi.json', import.meta.url), renderOpenApiDocument());
console.log('openapi.json written');
