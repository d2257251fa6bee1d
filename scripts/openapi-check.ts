import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { renderOpenApiDocument } from '../contract/openapi.js';

/** CI: the committed openapi.json is what the contract generates, and a validator accepts it. */
const path = new URL('../openapi.json', import.meta.url);
const committed = readFileSync(path, 'utf8');
if (committed !== renderOpenApiDocument()) {
  console.error('openapi.json differs from the contract: run `npm run openapi` and commit the result.');
  process.exit(1);
}
await SwaggerParser.validate(JSON.parse(committed) as never);
console.log('openapi.json matches the contract and is a valid OpenAPI 3.0 document');
