export * from './history';
export * from './requestDraft';
export * from './savedFile';
