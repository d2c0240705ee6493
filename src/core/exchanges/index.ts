// Working with exchanges once they are recorded: copy as code, compare, print as text.
export * from './compare';
export * from './exchangeText';
export * from './quoting';
export * from './snippets';
export * from './snippetTypes';
export * from './cliCommand';
