// The linter keeps the walls of the house: which part of the code may import which (eslint-plugin-boundaries), no
// import cycles (import-x/no-cycle), DynamoDB only in lambdas/data, plus typescript-eslint's recommended rules that
// need no type information. `npm run lint`; `npm test` runs it first. test/unit/lint.test.ts proves a crossed wall fails.
import { resolve } from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const projects = [resolve(root, 'tsconfig.json'), resolve(root, 'web/tsconfig.json')];

/** The parts of lambdas/ by folder; `lambdas-tables` are the route and workflow tables that CDK and the twin read. */
const LAMBDA_LAYERS = ['contracts', 'core', 'data', 'domain', 'handlers', 'media', 'providers', 'realtime', 'storage'];
const LAMBDA_ELEMENTS = [...LAMBDA_LAYERS, 'lambdas-tables'];

const DYNAMODB_MODULES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
const DYNAMODB_MESSAGE = 'All DynamoDB access lives in lambdas/data/ (a repository there, with its own client from data/dynamo.ts).';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'web/dist/**', 'cdk.out/**', '.cdk/**', '.data/**', 'lib/local/.build/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
      },
    },
    rules: {
      // The tree uses `_`-prefixed names for parameters a signature needs but the body doesn't.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Replacing a caught error with one that is safe to show is the rule here (never leak internals), not a slip.
      'preserve-caught-error': 'off',
    },
  },
  {
    // Tests, benches, scripts and the twin's glue poke at SDK and emulator shapes; the app code itself stays typed.
    files: ['test/**', 'bench/**', 'scripts/**', 'lib/local/**', 'bin/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: projects, alwaysTryTypes: true, noWarnOnMultipleProjects: true })],
      'import/resolver': { typescript: { project: projects, alwaysTryTypes: true, noWarnOnMultipleProjects: true } },
      'boundaries/root-path': root,
      'boundaries/include': ['lambdas/**', 'lib/**', 'web/**', 'bin/**'],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      // First match wins: the more specific folders come first.
      'boundaries/elements': [
        { type: 'web-feature', pattern: 'web/src/features/*/**', partialMatch: false, capture: ['feature'] },
        { type: 'web', pattern: 'web/**', partialMatch: false },
        ...LAMBDA_LAYERS.map((layer) => ({ type: layer, pattern: `lambdas/${layer}/**`, partialMatch: false })),
        { type: 'lambdas-tables', pattern: 'lambdas', partialMatch: false },
        { type: 'lib-local', pattern: 'lib/local/**', partialMatch: false },
        { type: 'lib', pattern: 'lib/**', partialMatch: false },
        { type: 'bin', pattern: 'bin/**', partialMatch: false },
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: ['web', 'web-feature'] } },
              disallow: { to: { element: { type: LAMBDA_ELEMENTS.filter((type) => type !== 'contracts') } } },
              message: 'The web app imports only lambdas/contracts of the back end (as @contracts/...).',
            },
            {
              from: { element: { type: LAMBDA_ELEMENTS } },
              disallow: { to: { element: { type: ['lib', 'lib-local', 'bin', 'web', 'web-feature'] } } },
              message: 'lambdas/ is deployed on its own: it imports nothing of lib/, bin/ or web/.',
            },
            {
              from: { element: { type: 'core' } },
              disallow: { to: { element: { type: LAMBDA_ELEMENTS.filter((type) => type !== 'core' && type !== 'contracts') } } },
              message: 'lambdas/core is the bottom layer: it imports only core and contracts; pass names and steps in.',
            },
            {
              // Files of one feature import each other freely (the next rule); another feature is reached only through
              // its index.ts; a piece many features share moves to web/src/components or web/src/lib.
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-feature' } } },
              message: "A web feature imports another feature only through its index.ts (or the shared piece moves to web/src/components or web/src/lib).",
            },
            { from: { element: { type: 'web-feature' } }, allow: { to: { element: { type: 'web-feature', captured: { feature: '{{from.element.captured.feature}}' } } } } },
            // A feature's index.ts is what it offers the others.
            { from: { element: { type: 'web-feature' } }, allow: { to: { element: { type: 'web-feature' }, file: { path: '**/web/src/features/*/index.ts' } } } },
          ],
        },
      ],
    },
  },
  {
    // The two classic rules of hooks; the React Compiler's rules of the recommended set are not adopted (yet).
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/data/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: DYNAMODB_MODULES.map((name) => ({ name, message: DYNAMODB_MESSAGE })) }],
      'no-restricted-syntax': [
        'error',
        ...DYNAMODB_MODULES.map((name) => ({ selector: `ImportExpression[source.value='${name}']`, message: DYNAMODB_MESSAGE })),
      ],
    },
  },
);
