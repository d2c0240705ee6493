// The recording commands: Start Recording (with a warning when the setting keeps real ids),
// Stop Recording (save dialog, HAR written under a temporary name and renamed), and Start Local
// Sandbox from Recording… (one or more HAR files, merged, served by the in-process sandbox).

import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { readHar, replayDataOf, writeHar } from '../../core/recording';
import type { SandboxController } from '../account/localSandbox';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import { RecordingController, readRecordingSettings } from './recordingController';

export interface SaveOptions {
  /** Skips the save dialog (a script or a test). */
  uri?: vscode.Uri | string;
}

export interface ReplayOptions {
  /** Skips the open dialog. */
  uris?: ReadonlyArray<vscode.Uri | string>;
}

const toUri = (u: vscode.Uri | string): vscode.Uri => (typeof u === 'string' ? vscode.Uri.file(u) : u);

export function registerRecordingCommands(session: Session, sandbox: SandboxController, recording: RecordingController): vscode.Disposable[] {
  const startRecording = async (): Promise<boolean> => {
    if (recording.recording) {
      void vscode.window.showInformationMessage(recording.count === 1 ? vscode.l10n.t('Already recording: 1 request so far.') : vscode.l10n.t('Already recording: {0} requests so far.', recording.count));
      return false;
    }
    const settings = readRecordingSettings();
    if (settings.keepIds) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('healthData.recording.keepIds is on: this recording will hold the real humanIds, userIds and record ids. Do not commit or share it.'),
      );
    }
    recording.start(settings);
    return true;
  };

  const stopRecording = async (options: SaveOptions = {}): Promise<{ uri: string; exchanges: number } | undefined> => {
    const stopped = recording.stop();
    if (!stopped) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No recording is on.'));
      return undefined;
    }
    let uri = options.uri !== undefined ? toUri(options.uri) : undefined;
    if (!uri) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Save Recording'),
        saveLabel: vscode.l10n.t('Save'),
        filters: { HAR: ['har'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'health-data.har') } : {}),
      });
    }
    if (!uri) {
      void vscode.window.showWarningMessage(stopped.count === 1 ? vscode.l10n.t('The recording of 1 request was discarded.') : vscode.l10n.t('The recording of {0} requests was discarded.', stopped.count));
      return undefined;
    }
    if (uri.scheme !== 'file') throw new HealthDataError('usage', vscode.l10n.t('Save the recording to a file on this machine (got a {0}: address).', uri.scheme));
    writeHar(uri.fsPath, stopped.har);
    void vscode.window.showInformationMessage(stopped.count === 1 ? vscode.l10n.t('Recorded 1 request to {0}.', uri.fsPath) : vscode.l10n.t('Recorded {0} requests to {1}.', stopped.count, uri.fsPath));
    return { uri: uri.toString(), exchanges: stopped.count };
  };

  const startFromRecording = async (options: ReplayOptions = {}): Promise<{ url: string; sources: string[] } | undefined> => {
    const uris = options.uris?.map(toUri) ?? (await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Start Local Sandbox from Recording'),
      openLabel: vscode.l10n.t('Replay'),
      canSelectMany: true,
      filters: { HAR: ['har'] },
    }));
    if (!uris || uris.length === 0) return undefined;
    const recordings = await Promise.all(uris.map(async (uri) => {
      const name = uri.path.split('/').pop() ?? uri.path;
      let text: string;
      try {
        text = uri.scheme === 'file' ? await readFile(uri.fsPath, 'utf8') : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch (err) {
        throw new HealthDataError('usage', vscode.l10n.t('Cannot read {0}: {1}', name, err instanceof Error ? err.message : String(err)));
      }
      try {
        return { name, har: readHar(text, name) };
      } catch (err) {
        throw new HealthDataError('usage', err instanceof Error ? err.message : String(err));
      }
    }));
    const replay = replayDataOf(recordings);
    const running = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting the local sandbox…') },
      () => sandbox.start(replay),
    );
    const count = Object.values(replay.records).reduce((n, list) => n + list.length, 0);
    void vscode.window.showInformationMessage(vscode.l10n.t('Local sandbox replaying {0} ({1} records) at {2}.', replay.sources.join(', '), count, running.url));
    return { url: running.url, sources: [...replay.sources] };
  };

  return registerCommands(
    {
      'healthData.startRecording': startRecording,
      'healthData.stopRecording': stopRecording,
      'healthData.startSandboxFromRecording': startFromRecording,
    },
    (err) => showError(session, err),
  );
}
