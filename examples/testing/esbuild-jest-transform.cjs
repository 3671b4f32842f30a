// A jest transform for TypeScript tests run as ES modules: esbuild strips the types, nothing more.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: filename,
      sourcemap: 'inline',
    });
    return { code, map };
  },
};
