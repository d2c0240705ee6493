// typescript-eslint's recommended rules over the sources, tests and benchmarks.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'src/core/validation/validators.generated.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      eqeqeq: ['error', 'smart'],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/sandbox/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      // The layers below the extension run outside VS Code.
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core, src/sandbox and src/cli must not import vscode.' }] }],
    },
  },
);
