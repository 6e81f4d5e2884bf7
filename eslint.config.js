// Lint rules, including the import boundaries of ARCHITECTURE.md:
// - packages/engine imports nothing of ours and no Node or DOM API;
// - packages never import apps; apps/web features never import each other.
import { readdirSync, existsSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import globals from 'globals'

const featuresDir = 'apps/web/src/features'
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : []

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'worker_threads',
  'http',
  'url',
]

// Server state is read with useQuery and the `queryOptions` of a queries module
// (features/<f>/lib/queries.ts is the one to copy): an effect that requests the API itself, or
// resolves a promise into React state, is a hand-rolled loader.
const serverStateRule = [
  'CallExpression[callee.name=/^(fetch|api|listAll|uploadWithProgress)$/]',
  "CallExpression[callee.type='MemberExpression'][callee.object.name=/Api$/]",
  "CallExpression[callee.property.name='then']:has(CallExpression[callee.name=/^set[A-Z]/])",
  "CallExpression[callee.property.name='then'] > Identifier.arguments[name=/^set[A-Z]/]",
].map((inner) => ({
  selector: `CallExpression[callee.name=/^use(Layout)?Effect$/] ${inner}`,
  message:
    'Server state is read with useQuery and a queryOptions of a queries module, not in an effect.',
}))

// A form is react-hook-form with a zod schema of packages/contracts: a <form> submits through its
// handleSubmit (features/account/profile-form-view.tsx is the one to copy).
const formRule = {
  selector:
    "JSXOpeningElement[name.name='form']:not(:has(JSXAttribute[name.name='onSubmit'] CallExpression:matches([callee.name='handleSubmit'], [callee.property.name='handleSubmit'])))",
  message: "A form submits through react-hook-form's handleSubmit (ARCHITECTURE.md).",
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'packages/db/drizzle/**',
      'test-results/**',
      'e2e/artifacts/**',
      'apps/web/dev-dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    // import-x reads our .ts/.tsx files (its TypeScript settings) and resolves relative imports
    // with their extensions, so that no-cycle sees every value import between our files.
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // No import circles between our files (type-only imports do not count: they vanish at run
      // time); packages are not followed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['packages/engine/**/*.ts'],
    languageOptions: { globals: { ...globals.es2023 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@veloptima/*', '../../*/src/*', ...nodeBuiltins],
              message:
                'packages/engine is pure TypeScript: it imports nothing of ours and no Node API.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'process', 'Buffer', 'require', 'localStorage'].map((name) => ({
          name,
          message: 'packages/engine has no DOM or Node APIs.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'The engine is deterministic.' },
        { object: 'Date', property: 'now', message: 'The engine is deterministic.' },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    ignores: ['packages/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@veloptima/api', '@veloptima/web'], message: 'Packages never import apps.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./${featuresDir}/${f}`,
              from: `./${featuresDir}`,
              except: [`./${f}`],
              message: 'Features never import each other: compose them in src/app.',
            })),
            {
              target: [`./${featuresDir}`, './apps/web/src/components', './apps/web/src/lib'],
              from: './apps/web/src/app',
              message: 'Only src/app composes features; nothing imports src/app.',
            },
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: `./${featuresDir}`,
              message: 'Shared code does not import features.',
            },
          ],
        },
      ],
    },
  },
  {
    // One way for each thing in the web app (ARCHITECTURE.md): server state and forms.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...serverStateRule, formRule] },
  },
  {
    // Files the form rule does not hold, each for its reason; the server-state rule holds for them
    // as for every file. The calculators' ToolForm (tools/components/fields.tsx) is not a form to
    // submit: it recomputes as the user types, and its submit only keeps Enter from reloading the
    // page.
    files: ['apps/web/src/features/tools/components/fields.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...serverStateRule] },
  },
  {
    // SQL lives in repositories (ARCHITECTURE.md): outside a `repository.ts` or `repositories/`,
    // the API imports the database only as types, and the process entry points open it.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/repository.ts',
      'apps/api/src/repositories/**',
      'apps/api/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@veloptima/db',
              allowTypeImports: true,
              allowImportNames: ['openDatabase'],
              message: 'SQL lives in repositories: call a repository function.',
            },
          ],
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', 'pg', '@electric-sql/pglite'],
              allowTypeImports: true,
              message: 'SQL lives in repositories: call a repository function.',
            },
          ],
        },
      ],
    },
  },
  {
    // Functions that fit in a head: product code keeps every function under 150 lines.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'scripts/**/*.{mjs,ts}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.int.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
)
