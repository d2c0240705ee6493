// The sandbox's documented credentials, apart from everything else so the extension can use them
// for a sandbox started outside VS Code without bundling the sandbox itself.

export const DEFAULT_CLIENT_ID = 'sandbox-client';
/** A documented default, printed by the CLI: the sandbox guards nothing of value. */
export const DEFAULT_CLIENT_SECRET = 'sandbox-secret';
/** The port `health-data sandbox` and `npm start` use unless told otherwise. */
export const DEFAULT_PORT = 8787;
