// Report text that is safe on a terminal, whatever a payload or a file name holds: the control,
// direction and invisible characters are written as escapes the format itself defines (JSON's
// \uXXXX, XML's character references, GitHub's %0A), so readers get the text back unchanged.

import { escapeInvisible, unicodeEscape } from '../validation';

/**
 * JSON.stringify's output with the characters it leaves raw (DEL, C1 controls, direction marks,
 * separators) escaped as \uXXXX. They can stand only inside strings, where the escape is the same
 * text to a parser.
 */
export function inertJson(json: string): string {
  // JSON.stringify escapes C0 controls in strings (and lone surrogates): a raw one is layout.
  return escapeInvisible(json, (c) => (c < ' ' ? c : unicodeEscape(c)));
}

/** XML 1.0 cannot carry these at all, not even as character references. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function xmlCharacter(c: string): string {
  // A lone surrogate or a C0 control cannot be written in XML: its code as text stands in.
  if (NOT_XML.test(c)) return unicodeEscape(c);
  return `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`;
}

/**
 * Text for an XML attribute or element: markup escaped, invisible characters as character
 * references (a parser reads them back), and what XML cannot hold as visible \uXXXX text.
 * Line feeds stay in element text (`multiline`) and become references in attributes.
 */
export function xmlText(text: string, multiline = false): string {
  let out = text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]);
  // Pairs of surrogates are one character, fine in XML; lone ones are not.
  out = out.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g, unicodeEscape);
  return escapeInvisible(out, (c) => (multiline && c === '\n' ? c : xmlCharacter(c)));
}

/** GitHub's workflow command escapes: the message, and a property value (which also escapes : and ,). */
export function githubData(text: string): string {
  const escaped = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return escapeInvisible(escaped);
}

export function githubProperty(text: string): string {
  return githubData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
