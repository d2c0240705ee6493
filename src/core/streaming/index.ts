export * from './recordSplitter';
export * from './unitChecks';
export * from './recordPlaces';
