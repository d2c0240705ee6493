// "Start Recording" / "Stop Recording": every exchange of the session kept from start to stop,
// then saved as HAR with identities pseudonymized (one random key per window, held in memory
// only, so the recordings of one session agree), a status bar item showing while it is on.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { HarLog, Recorder } from '../../core/recording';
import type { Session } from '../account/session';

declare const __VERSION__: string | undefined;

export interface RecordingSettings {
  keepIds: boolean;
  shiftDays: number;
  keepWeekdays: boolean;
}

export function readRecordingSettings(): RecordingSettings {
  const c = vscode.workspace.getConfiguration('healthData.recording');
  const shift = c.get<number>('shiftDates', 0);
  return {
    keepIds: c.get<boolean>('keepIds', false),
    shiftDays: Number.isInteger(shift) ? shift : 0,
    keepWeekdays: c.get<boolean>('keepWeekdays', false),
  };
}

export class RecordingController implements vscode.Disposable {
  /** Lives as long as the window and is never written anywhere. */
  private readonly key = randomBytes(32);
  private recorder: Recorder | undefined;
  private subscription: vscode.Disposable | undefined;
  private readonly secrets = new Set<string>();
  private readonly item = vscode.window.createStatusBarItem('healthData.recording', vscode.StatusBarAlignment.Left, 49);

  constructor(private readonly session: Session) {
    this.item.name = vscode.l10n.t('Health Data recording');
    this.item.command = 'healthData.stopRecording';
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  get recording(): boolean {
    return this.recorder !== undefined;
  }

  get count(): number {
    return this.recorder?.count ?? 0;
  }

  /** What the status bar item shows (for the tests). */
  get statusText(): string | undefined {
    return this.recorder ? this.item.text : undefined;
  }

  start(settings: RecordingSettings): void {
    if (this.recorder) return;
    const recorder = new Recorder({ ...settings, key: this.key, secrets: () => [...this.secrets] });
    this.recorder = recorder;
    this.secrets.clear();
    this.subscription = this.session.onDidExchangeWhole(({ exchange, secrets }) => {
      for (const s of secrets) this.secrets.add(s);
      recorder.add(exchange);
      this.update();
    });
    this.update();
    this.item.show();
    void vscode.commands.executeCommand('setContext', 'healthData.recording', true);
  }

  /** Stops and returns the recording as HAR (undefined when none was on); the caller saves it. */
  stop(): { har: HarLog; count: number } | undefined {
    const recorder = this.recorder;
    if (!recorder) return undefined;
    this.recorder = undefined;
    this.subscription?.dispose();
    this.subscription = undefined;
    this.item.hide();
    void vscode.commands.executeCommand('setContext', 'healthData.recording', false);
    const har = recorder.toHar({ name: 'Health Data Explorer', version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev' });
    this.secrets.clear();
    return { har, count: recorder.count };
  }

  private update(): void {
    const n = this.recorder?.count ?? 0;
    this.item.text = `$(record) ${vscode.l10n.t('Recording ({0})', n)}`;
    this.item.tooltip = vscode.l10n.t('Recording every request of Health Data Explorer: {0} so far. Click to stop and save.', n);
  }

  dispose(): void {
    this.subscription?.dispose();
    this.item.dispose();
  }
}
