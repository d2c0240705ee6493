export * from './dateFormats';
export * from './fieldFindings';
export * from './findings';
export * from './intactRecords';
export * from './payloadText';
export * from './plausibility';
export * from './schemas';
export * from './validator';
