// esbuild bundles imported stylesheets beside the script; to tsc they are modules without exports.
declare module '*.css';
