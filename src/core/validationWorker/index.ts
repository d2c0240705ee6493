// Validation on worker threads: payload texts validated a batch of records at a time, the batches
// posted as they finish, runs cancelled by terminating their thread. worker.ts is the threads' script.
export * from './batches';
export * from './protocol';
export * from './warmUp';
export * from './workers';
