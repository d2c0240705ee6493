export * from './csvCells';
export * from './encoders';
export * from './exportList';
export * from './partialFile';
