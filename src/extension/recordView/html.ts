// The record view's HTML shell: a strict Content-Security-Policy, the stylesheet and the script
// from the extension's own files, and nothing else. The record never goes into the HTML: it
// comes by postMessage once the script says it is ready, and the script inserts it as text.
// Imports no 'vscode', so the unit tests can check it.

import { randomBytes } from 'node:crypto';

export interface ShellParts {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** `asWebviewUri` of dist/webview.js and media/recordView.css, as strings. */
  readonly scriptUri: string;
  readonly styleUri: string;
  /** Stylesheets that follow the first (another view built on the record view's styles). */
  readonly extraStyleUris?: readonly string[];
  /** A fresh nonce per load (newNonce). */
  readonly nonce: string;
  /** The document's language (vscode.env.language) and its title; no record data. */
  readonly lang: string;
  readonly title: string;
}

/** 128 random bits from the system's CSPRNG, base64: a nonce no page can guess. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/** Escapes text for HTML text or a double-quoted attribute: our own strings, never trusted blindly. */
export function escapeHtml(text: string): string {
  return text.replace(/[&"<>]/g, (c) => ESCAPES[c]);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function recordViewHtml(parts: ShellParts): string {
  const csp = contentSecurityPolicy(parts.cspSource, parts.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeHtml(parts.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(parts.styleUri)}">
${(parts.extraStyleUris ?? []).map((uri) => `<link rel="stylesheet" href="${escapeHtml(uri)}">\n`).join('')}<title>${escapeHtml(parts.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${escapeHtml(parts.nonce)}" src="${escapeHtml(parts.scriptUri)}"></script>
</body>
</html>
`;
}
