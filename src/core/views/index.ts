export * from './jsonTree';
export * from './labels';
export * from './recordViewModel';
export * from './recordViewProtocol';
export * from './treeModel';
export * from './insightsProtocol';
