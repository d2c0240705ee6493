export * from './history';
export * from './requestDraft';
export * from './pastedRequest';
export * from './foreignRequests';
export * from './savedFile';
export * from './sendDraft';
export * from './runSaved';
export * from './typedExpectations';
