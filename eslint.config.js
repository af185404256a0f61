// The linter keeps the walls of the house: which part of the code may import which (eslint-plugin-boundaries), no
// import cycles (import-x/no-cycle), DynamoDB only in lambdas/data, plus typescript-eslint's recommended rules that
// need no type information; and in test/, no claim skipped silently (scripts/eslint-test-guards.mjs). `npm run lint`;
// `npm test` runs it first. test/unit/lint.test.ts proves a crossed wall and a silently skipped claim fail.
import { resolve } from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import boundaries from 'eslint-plugin-boundaries';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import testGuards from './scripts/eslint-test-guards.mjs';

const root = import.meta.dirname;
const projects = [resolve(root, 'tsconfig.json'), resolve(root, 'web/tsconfig.json')];

/** The parts of lambdas/ by folder; `lambdas-tables` are the route and workflow tables that CDK and the twin read. */
const LAMBDA_LAYERS = ['contracts', 'core', 'data', 'domain', 'handlers', 'media', 'net', 'providers', 'realtime', 'storage'];
const LAMBDA_ELEMENTS = [...LAMBDA_LAYERS, 'lambdas-tables'];

const DYNAMODB_MODULES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
const DYNAMODB_MESSAGE = 'All DynamoDB access lives in lambdas/data/ (a repository there, with its own client from data/dynamo.ts).';

/** What each part may import (besides itself and packages); anything not drawn here is refused. */
const DRAWN = {
  contracts: [],
  core: ['contracts'],
  net: ['core'],
  media: ['core'],
  data: ['core', 'contracts'],
  storage: ['core', 'data'],
  providers: ['core', 'contracts', 'storage', 'media', 'net'],
  realtime: ['core', 'contracts', 'data'],
  domain: ['contracts', 'core', 'data', 'media', 'net', 'providers', 'realtime', 'storage', 'lambdas-tables'],
  handlers: LAMBDA_ELEMENTS.filter((type) => type !== 'handlers'),
  'lambdas-tables': ['core', 'data', 'providers', 'contracts'],
  'web-lib': ['contracts'],
  'web-components': ['web-lib', 'contracts'],
  'web-feature': ['web-components', 'web-lib', 'contracts'],
  'web-app': ['web-feature', 'web-components', 'web-lib', 'contracts'],
  web: ['web-app', 'web-feature', 'web-components', 'web-lib', 'contracts'],
  'lib-local': ['lib', 'bin', ...LAMBDA_ELEMENTS, 'web', 'web-app', 'web-lib'],
  lib: ['lib-local', ...LAMBDA_ELEMENTS, 'web', 'web-app', 'web-lib'],
  bin: ['lib', 'lib-local', ...LAMBDA_ELEMENTS, 'web', 'web-app', 'web-lib'],
};

const WEB = ['web', 'web-app', 'web-feature', 'web-components', 'web-lib'];
const refuse = (from, to, message) => ({ from: { element: { types: { anyOf: from } } }, disallow: { to: { element: { types: { anyOf: to } } } }, message });

// Later policies win over earlier ones: first what is drawn, then the walls with their reasons.
const WALLS = [
  ...Object.entries(DRAWN).map(([from, to]) => ({
    from: { element: { type: from } },
    allow: { to: { element: { types: { anyOf: from === 'web-feature' ? to : [from, ...to] } } } },
  })),
  // Packages: anyone may use one (contracts excepted: the last block of this file).
  { allow: { to: { module: { origin: 'external' } } } },
  { allow: { to: { module: { origin: 'core' } } } },
  refuse(WEB, LAMBDA_ELEMENTS.filter((type) => type !== 'contracts'), 'The web app imports only lambdas/contracts of the back end (as @contracts/...).'),
  refuse(LAMBDA_ELEMENTS, ['lib', 'lib-local', 'bin', ...WEB], 'lambdas/ is deployed on its own: it imports nothing of lib/, bin/ or web/.'),
  refuse(['core'], LAMBDA_ELEMENTS.filter((type) => type !== 'core' && type !== 'contracts'), 'lambdas/core is the bottom layer: it imports only core and contracts; pass names and steps in.'),
  refuse(['contracts'], LAMBDA_ELEMENTS.filter((type) => type !== 'contracts'), 'lambdas/contracts ships to the browser: it imports zod and other contracts only.'),
  refuse(['data'], LAMBDA_ELEMENTS.filter((type) => !['data', 'core', 'contracts'].includes(type)), 'lambdas/data (the repositories) imports only core and contracts.'),
  refuse(['providers'], LAMBDA_ELEMENTS.filter((type) => !DRAWN.providers.includes(type) && type !== 'providers'), 'lambdas/providers imports only core, contracts, storage, media and net: adapters know nothing of the domain.'),
  refuse(['web-lib', 'web-components'], ['web-feature', 'web-app'], 'web/src/lib and web/src/components are shared: they never import a feature or the app.'),
  refuse(['web-feature'], ['web-app'], 'A web feature never imports web/src/app (the app composes the features).'),
  // Files of one feature import each other freely; another feature is reached only through its index.ts (a piece
  // many features share moves to web/src/components or web/src/lib).
  refuse(['web-feature'], ['web-feature'], 'A web feature imports another feature only through its index.ts (or the shared piece moves to web/src/components or web/src/lib).'),
  { from: { element: { type: 'web-feature' } }, allow: { to: { element: { type: 'web-feature', captured: { feature: '{{from.element.captured.feature}}' } } } } },
  { from: { element: { type: 'web-feature' } }, allow: { to: { element: { type: 'web-feature' }, file: { path: '**/web/src/features/*/index.ts' } } } },
];

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
        { type: 'web-app', pattern: 'web/src/app/**', partialMatch: false },
        { type: 'web-components', pattern: 'web/src/components/**', partialMatch: false },
        { type: 'web-lib', pattern: 'web/src/lib/**', partialMatch: false },
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
      // Default-disallow: an import between two parts is allowed only where this picture draws it. The layers of
      // lambdas/, bottom to top: contracts (shared with the browser) · core · net, media · data · storage ·
      // providers, realtime · domain · handlers; the route and workflow tables sit beside domain. lib/ and bin/
      // compose everything (CDK and the twin). In web/: lib · components · features · app, features apart.
      'boundaries/dependencies': ['error', { default: 'disallow', message: 'This import crosses a wall that eslint.config.js does not draw (DRAWN): move the code to the layer that may use it.', policies: WALLS }],
    },
  },
  {
    // A test never passes by skipping its own claims: no expect inside an if without an else, no bare return before
    // an assertion; an exception names its reason in a `// test-guard: <reason>` comment.
    files: ['test/**/*.ts'],
    plugins: { 'test-guards': testGuards },
    rules: { 'test-guards/no-silent-pass': 'error' },
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
  {
    // The contracts ship to the browser and to every function: zod is their one package.
    files: ['lambdas/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|zod/|\\.)', message: 'lambdas/contracts ships to the browser: it imports zod and other contracts only.' }] }],
    },
  },
);
