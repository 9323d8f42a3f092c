/**
 * ESLint flat config: TypeScript + React hooks (incl. the compiler-powered rules), the webapp's import
 * direction, zero warnings in CI.
 *
 * @module
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');

/**
 * The layer of a file under `src/`: `feature` (with its folder name), `app`, `shared` (lib,
 * components, hooks) or `null` for the rest (generated API, i18n, test harness, main.tsx).
 */
function layerOf(file) {
  const [top, name] = path.relative(SRC, file).split(path.sep);
  if (top === 'features' && name) return { kind: 'feature', name };
  if (top === 'app') return { kind: 'app' };
  if (top === 'lib' || top === 'components' || top === 'hooks') return { kind: 'shared' };
  return null;
}

/**
 * `layers/import-direction`: shared code (src/lib, src/components, src/hooks) → features → app
 * (architecture principle 8, bulletproof-react). A feature imports no other feature and not
 * src/app; shared code imports neither features nor src/app. Relative imports are resolved against
 * the importing file, so every depth and every new feature folder is covered.
 */
const importDirection = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports flowing lib → features → app, with no imports between features.' },
    schema: [],
    messages: {
      otherFeature: "Feature '{{from}}' imports feature '{{to}}': move the shared piece to src/lib, src/components or src/hooks.",
      featureToApp: "Feature '{{from}}' imports src/app: the app composes features, not the other way round.",
      sharedUp: '{{from}} imports {{to}}: shared code (src/lib, src/components, src/hooks) must not depend on features or src/app.',
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = layerOf(path.resolve(path.dirname(context.filename), source.value));
      if (!to) return;
      if (from.kind === 'feature' && to.kind === 'feature' && to.name !== from.name) {
        context.report({ node: source, messageId: 'otherFeature', data: { from: from.name, to: to.name } });
      } else if (from.kind === 'feature' && to.kind === 'app') {
        context.report({ node: source, messageId: 'featureToApp', data: { from: from.name } });
      } else if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app')) {
        const target = to.kind === 'app' ? 'src/app' : `src/features/${to.name}`;
        context.report({ node: source, messageId: 'sharedUp', data: { from: path.relative(SRC, context.filename), to: target } });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

const layers = { meta: { name: 'layers' }, rules: { 'import-direction': importDirection } };

export default defineConfig([
  globalIgnores(['dist', 'node_modules', 'src/api/generated']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat['recommended-latest']],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { layers },
    rules: { 'layers/import-direction': 'error' },
  },
  {
    files: ['*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['eslint.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
]);
