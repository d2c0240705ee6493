// jsonc-parser's syntax error codes in words, one wording for every place that reports them.

/**
 * jsonc-parser's codes in the words the Problems panel uses for them (the extension's
 * syntaxMessage, there translated), so a file's message says the same in the CLI and the editor.
 */
const SYNTAX_WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected symbol',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing brace } is expected',
  CloseBracketExpected: 'a closing bracket ] is expected',
  EndOfFileExpected: 'nothing may follow the value',
  InvalidCommentToken: 'comments are not allowed',
  UnexpectedEndOfComment: 'the comment is not closed',
  UnexpectedEndOfString: 'the string is not closed',
  UnexpectedEndOfNumber: 'the number ends too early',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'unknown escape character',
  InvalidCharacter: 'a control character must be escaped in a string',
};

/** `CommaExpected` → `a comma is expected`: a jsonc-parser code in words. */
export function syntaxWords(code: string): string {
  return Object.hasOwn(SYNTAX_WORDS, code) ? SYNTAX_WORDS[code] : code;
}

/** A syntax error and its place: what is left open is named where it opens. */
export function placedSyntaxWords(code: string, line: number, column: number): string {
  const at = `line ${line}, column ${column}`;
  if (code === 'UnexpectedEndOfString') return `the string opened at ${at} is not closed`;
  if (code === 'UnexpectedEndOfComment') return `the comment opened at ${at} is not closed`;
  return `${syntaxWords(code)} at ${at}`;
}
