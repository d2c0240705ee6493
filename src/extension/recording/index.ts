// The recording feature's entry (its own bundle, dist/recording.js, required on first use):
// the controller that keeps Start/Stop Recording's state, and the commands.
export { RecordingController } from './recordingController';
export { registerRecordingCommands } from './commands';
