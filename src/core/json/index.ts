export * from './edit';
export * from './locate';
export * from './pointers';
export * from './lines';
export * from './syntaxWords';
