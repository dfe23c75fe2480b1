import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** What the engine may not reach: it is pure TypeScript over Request and Response. */
export const engineFence = {
  imports: [
    'react',
    'react-dom',
    'react-dom/*',
    'msw',
    'msw/*',
    'idb',
    'idb/*',
    'node:*',
    '@tanstack/*',
  ],
  globals: [
    'window',
    'document',
    'localStorage',
    'sessionStorage',
    'indexedDB',
    'navigator',
    'process',
    'Buffer',
  ],
}

/** Test support (src/testing) serves the tests; the product never depends on it. */
const testingFence = {
  group: ['**/testing', '**/testing/*'],
  message: 'src/testing is test support: product code does not import it.',
}

/**
 * The playground talks to the engine only over fetch: from the engine and the stores it takes
 * types, never values. Its page's service (src/msw/playground.ts) makes the engine.
 */
export const playgroundFence = {
  group: ['**/engine', '**/engine/**', '**/storage', '**/storage/**', '**/node', '**/node/**'],
  allowTypeImports: true,
  message:
    'The playground talks to the engine only over fetch: import types from the engine and the stores, never values.',
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'public/mockServiceWorker.js',
      // Ajv's code for the link schema, made by src/conformance/link/link-validate.test.ts.
      'src/conformance/link/link-validate.js',
      'test-results',
      'playwright-report',
      'kit',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/**/*.setup.ts', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [testingFence],
        },
      ],
    },
  },
  // The engine imports nothing outside src/engine, by package or by relative path: from a file
  // `depth` folders below src/engine, a path climbing `depth + 1` times leaves it.
  ...[0, 1, 2, 3].map((depth) => ({
    files: [`src/engine/${'*/'.repeat(depth)}*.ts`],
    ignores: ['src/engine/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: engineFence.imports,
              message: 'src/engine stays pure: no DOM, msw, idb, React or Node imports.',
            },
            {
              regex: `^(\\.\\./){${depth + 1}}`,
              message:
                'src/engine stays pure: it imports nothing outside src/engine (the adapters import the engine, not the other way).',
            },
            testingFence,
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...engineFence.globals.map((name) => ({
          name,
          message: 'src/engine stays pure: reach the environment through the settings it is given.',
        })),
      ],
    },
  })),
  {
    // What the playground runs in its page to save and replay contracts (src/conformance/browser.ts).
    files: [
      'src/conformance/{base64,browser,build,cases,compare,counterfactual,fetch-target,report,run,service-name,target}.ts',
      'src/conformance/contract/{answer,format,record,request,verify}.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'msw/node', '**/targets', '**/load-cases', '**/commands'],
              message: 'The playground runs this in the browser: no Node modules.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'require', '__dirname'].map((name) => ({
          name,
          message: 'The playground runs this in the browser: use src/conformance/base64.ts.',
        })),
      ],
    },
  },
  {
    files: ['public/app-worker.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    ignores: ['src/ui/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [playgroundFence, testingFence] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/(^|\\/)(engine|storage|node)(\\/|$)/]',
          message: playgroundFence.message,
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
)
