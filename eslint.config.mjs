// The linter: ESLint with typescript-eslint's type-aware rules. Type information is what lets it
// catch the defects that matter most here: an API call or `expect(...).rejects` left without
// `await` (a request never checked, a test that cannot fail), a promise passed where a callback's
// result is ignored, an `await` on something that is not a promise. Formatting is Prettier's job
// (`.prettierrc.json`); no rule here is about layout.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'docs/api/', 'coverage/', 'test-output/', '.scratch/', '.cache/', 'examples/dashboard/dist/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The SDK runs in Node and browsers alike; examples and scripts are one or the other.
      globals: { ...globals.node, ...globals.browser },
      // tsconfig.test.json covers every TypeScript file (src, mocks, test, examples, bench, scripts).
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The same convention as tsc's noUnusedParameters: a leading `_` marks a name kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'all', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `export interface Member extends z.infer<typeof MemberSchema> {}` names a schema's type for
      // readers and the API docs; an empty `{}` type anywhere else is still reported.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Passing on what was caught, or an AbortSignal's reason, is how a rejection is forwarded
      // here; a literal that is not an Error is still reported.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // `async` without `await` is deliberate: it turns a throw into a rejection, and it is how a
      // Promise-returning interface (RateLimitStore, a fetch double) is implemented.
      '@typescript-eslint/require-await': 'off',
      // `table.get(id) ?? fail(notFound(...))` is the mock's "must exist" statement.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true }],
      // A one-line `if (…) return …` reads best bare; once Prettier breaks it over two lines it
      // gets braces, so a body and the line under an `if` are never confused.
      curly: ['error', 'multi-line'],
    },
  },
  {
    // The SDK speaks only through its logger (`logLevel`, `logger`; default `console`), never
    // straight to the console.
    files: ['src/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // Tests read raw JSON bodies (`any`) and poke at values on purpose; expect() is the check
    // there, and typing every body would add casts that catch nothing.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript files are outside the TypeScript project: no type-aware rules there.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The runtime smoke test also runs on Deno and Bun, and asks which one it is on.
  { files: ['examples/runtime-smoke.mjs'], languageOptions: { globals: { Deno: 'readonly', Bun: 'readonly' } } },
);
