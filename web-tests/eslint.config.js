// The browser game's lint (`npm run lint`, run by scripts/test.sh beside tsc's type check; ESLint
// runs from the repository's root with this file as its config): ESLint's recommended rules over
// the page modules, as browser ES modules, and over these tests and tools, as node modules that
// also hold code run in the page.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { basePath: '..', ignores: ['web-tests/node_modules/**'] },
  js.configs.recommended,
  {
    files: ['crates/server/web/assets/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['web-tests/**/*.mjs', 'web-tests/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
];
