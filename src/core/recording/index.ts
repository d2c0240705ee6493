export * from './dateShift';
export * from './har';
export * from './pseudonyms';
export * from './recorder';
export * from './replay';
export * from './scrub';
