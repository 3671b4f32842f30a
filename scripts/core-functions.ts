/**
 * Writes `src/resources/functions.ts`, the functions of `community-server-sdk/core`, from the endpoint
 * table: `npm run core:functions`. test/core/core.test.ts fails while the committed file differs.
 * @module
 */
import { writeFileSync } from 'node:fs';
import { coreFunctionsFile, renderCoreFunctions } from './core/functions';

writeFileSync(coreFunctionsFile, await renderCoreFunctions());
console.log(`wrote ${coreFunctionsFile}`);
