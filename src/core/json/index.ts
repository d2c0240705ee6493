export * from './edit';
export * from './locate';
