// A jest transform for TypeScript: esbuild strips the types, nothing more. Tests run as ES
// modules; what jest loads by `require` (a globalSetup, and the files it imports) becomes CommonJS.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { transformSync } = require('esbuild');

/** This file, in every cache key: an edit here must not leave jest serving what it made before. */
const self = readFileSync(__filename);

module.exports = {
  getCacheKey(source, filename, { configString, supportsStaticESM }) {
    return createHash('sha256').update(self).update(`\0${filename}\0${supportsStaticESM}\0${configString}\0`).update(source).digest('hex');
  },
  process(source, filename, { supportsStaticESM }) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: supportsStaticESM ? 'esm' : 'cjs',
      target: 'node20',
      sourcefile: filename,
      sourcemap: 'inline',
    });
    return { code, map };
  },
};
