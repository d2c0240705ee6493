export * from './recordSplitter';
export * from './unitChecks';
