import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// Every folder of server/ but platform/ is a domain, so a new domain is under the boundary rules
// the day its folder exists.
const domains = readdirSync(join(root, 'server'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
  .map((entry) => entry.name)
  .sort();

// Layers (docs/decisions.md D45): SQL is built only in *queries.ts files, migrations and server/platform/db/.
// A query starts with one of these builders (a `with` is always followed by one), a sql`` fragment,
// a CompiledQuery or a prepared statement's text.
const sqlMessage =
  'SQL is built only in *queries.ts files, migrations/ and server/platform/db/ (docs/decisions.md D45): move it into the queries file of its resource.';
const sqlBuilders = [
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'executeQuery',
];
const sqlRule = [
  'error',
  { selector: `MemberExpression[property.name=/^(${sqlBuilders.join('|')})$/]`, message: sqlMessage },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: sqlMessage },
  { selector: "MemberExpression[object.name='sql']", message: sqlMessage },
  { selector: "Identifier[name='CompiledQuery']", message: sqlMessage },
  { selector: "CallExpression[callee.name='runPrepared']", message: sqlMessage },
];
const sqlImportsRule = [
  'error',
  {
    paths: [
      { name: 'kysely', importNames: ['sql', 'CompiledQuery'], message: sqlMessage },
      { name: 'pg', allowTypeImports: true, message: sqlMessage },
      { name: '@electric-sql/pglite', allowTypeImports: true, message: sqlMessage },
    ],
  },
];

// A domain is a module (docs/decisions.md D47): another domain, the composition root (server/*.ts)
// and bench/ reach a domain only through its index.ts; the platform reaches none (D45).
const others = (domain) => domains.filter((d) => d !== domain).map((d) => `server/${d}`);
const boundaryRule = [
  'error',
  {
    basePath: root,
    zones: [
      ...domains.map((domain) => ({
        target: `server/${domain}`,
        from: others(domain),
        except: ['./index.ts'],
        message:
          'A domain imports another domain only through its index.ts or reacts to it through a hook (docs/decisions.md D47).',
      })),
      {
        target: 'server/platform',
        from: domains.map((d) => `server/${d}`),
        message: 'server/platform/ serves every domain and imports none (docs/decisions.md D45).',
      },
      {
        target: 'server/*.ts',
        from: domains.map((d) => `server/${d}`),
        except: ['./index.ts'],
        message: 'The composition root imports a domain only through its index.ts (docs/decisions.md D47).',
      },
      {
        target: 'bench',
        from: domains.map((d) => `server/${d}`),
        except: ['./index.ts'],
        message:
          'bench/ drives the service through client/ and reaches a domain only through its index.ts, never its internals.',
      },
    ],
  },
];

export default tseslint.config(
  // bench/baseline-earn.mjs is the plain-JavaScript baseline the earn bench runs beside the service.
  {
    ignores: ['node_modules/', 'dist/', 'client/dist/', 'data/', 'coverage/', 'openapi.json', 'bench/*.mjs'],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: root },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      // `interface XSchemaType extends XZod {}` names a schema's type, so that declaration files (the
      // SDK's) refer to it instead of spelling the Zod type out at every use.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // Boundaries (docs/decisions.md D45), resolved through tsconfig so `.js` specifiers find their `.ts` files.
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(root, 'tsconfig.json') })],
      // Imported .ts files are parsed too, so that no-cycle follows their imports.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
    },
  },
  {
    files: ['server/**/*.ts', 'bench/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': boundaryRule },
  },
  // The dashboard calls the service only through the SDK (docs/decisions.md D188).
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: 'web',
              from: ['server', 'contract'],
              message:
                'The dashboard reaches the service only through the SDK of client/ (docs/decisions.md D188).',
            },
          ],
        },
      ],
    },
  },
  // The sign-in page and the dashboard's frame load first: the auth routes only, never the whole
  // client (docs/decisions.md D260). Types of client/index.ts are erased, so they may be imported.
  {
    files: [
      'web/main.tsx',
      'web/app.tsx',
      'web/routes.ts',
      'web/components/ui.tsx',
      'web/lib/{forms,messages,router,screen,session}.ts',
      'web/screens/account/{auth-page,register,sign-in}.tsx',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/index.js', '**/lib/api.js'],
              allowTypeImports: true,
              message:
                'The first load carries the auth routes only: use client/auth.js, client/transport.js or client/money.js (docs/decisions.md D260).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*queries.ts', 'server/platform/db/**'],
    rules: { 'no-restricted-syntax': sqlRule, '@typescript-eslint/no-restricted-imports': sqlImportsRule },
  },
  {
    // Imports that carry only types are erased at compile time and are not followed.
    files: ['server/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Tests exercise internals on purpose.
  {
    files: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off', 'import-x/no-cycle': 'off' },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
);
