/**
 * Writes `openapi.json`, the OpenAPI 3.1 document of the API, from the SDK's resource table and
 * zod schemas: `npm run openapi`. test/openapi/openapi.test.ts fails while the committed file differs.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { openApiFile, renderOpenApi } from './openapi/document';

writeFileSync(openApiFile, await renderOpenApi());
console.log(`wrote ${openApiFile}`);
