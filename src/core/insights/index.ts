export * from './byKind';
export * from './coverage';
export * from './trends';
export * from './reportTypes';
