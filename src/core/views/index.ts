export * from './jsonTree';
export * from './labels';
export * from './recordViewModel';
export * from './recordViewProtocol';
export * from './treeModel';
export * from './exchangeViewModel';
export * from './exchangeViewProtocol';
export * from './listOrder';
