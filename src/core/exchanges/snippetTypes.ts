// The shapes Copy as Code works with, apart from the writers (snippets.ts, cliCommand.ts), which
// both use them.

import type { TokenPresentation } from '../service';

export type SnippetLanguage = 'curl' | 'fetch' | 'python' | 'cli';

/** A request as a snippet writes it: no credential in it, the token added by the snippet. */
export interface CodeRequest {
  readonly purpose: 'token' | 'data';
  readonly method: 'GET' | 'POST';
  /** Absolute, printable ASCII only, without the token. */
  readonly url: string;
  /** Without the token's header. */
  readonly headers: readonly (readonly [string, string])[];
}

export interface SnippetOptions {
  readonly language: SnippetLanguage;
  /** How data calls carry the token (the user's settings). */
  readonly presentation: TokenPresentation;
  /** `{auth_url}`, where the snippet mints its token. */
  readonly authUrl: string;
  /** `{base_url}`: what a `health-data` command of a token exchange exports (else the auth address). */
  readonly baseUrl?: string;
  /** Written into the snippet instead of the variable; only when the user chose to include it. */
  readonly liveToken?: string;
}

export interface Snippet {
  readonly language: SnippetLanguage;
  /** The whole snippet. */
  readonly text: string;
  /** Imports the other parts need (empty for cURL and fetch). */
  readonly prelude: string;
  /** The command that mints the token into the variable; absent when the live token is written, and for the CLI, which mints its own. */
  readonly mint?: string;
  /** The request itself (for a token exchange: empty, the mint is the request). */
  readonly request: string;
  /** A `health-data` command's query parameters it has no option for, as written in the URL (named in a comment above it). */
  readonly notCarried?: readonly string[];
}
