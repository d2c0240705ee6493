export * from './history';
export * from './requestDraft';
