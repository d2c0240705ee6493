// The CLI's version: the package's, put in by esbuild; `dev` when run from compiled sources.

declare const __VERSION__: string | undefined;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
