export * from './edit';
export * from './locate';
export * from './pointers';
