// What the two insights views share: one panel at a time, opened or brought to the front, and
// the last complete load, which is forgotten with the panel that showed it.

import * as vscode from 'vscode';
import type { InsightsWebviewMessage } from '../../core/views';
import { InsightsPanel, InsightsPanelOptions, openViewPanel } from './insightsPanel';
import type { CompleteLoad } from './loadFailure';

export abstract class InsightsView<Complete> implements vscode.Disposable {
  protected panel: InsightsPanel | undefined;
  /** The last complete load: still shown, marked, when a later load of the same view fails or is cancelled. */
  protected complete: CompleteLoad<Complete> | undefined;

  protected constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly options: () => Pick<InsightsPanelOptions, 'viewType' | 'title' | 'bundle' | 'bundleCss'>,
  ) {}

  get currentPanel(): InsightsPanel | undefined {
    return this.panel;
  }

  abstract handleMessage(message: InsightsWebviewMessage): void;

  /** The panel on screen: the open one brought to the front, or a new one. */
  protected showPanel(): void {
    if (!this.panel || this.panel.isDisposed) this.openPanel();
    else this.panel.reveal();
  }

  protected openPanel(restored?: vscode.WebviewPanel): InsightsPanel {
    const forget = (closed: InsightsPanel) => {
      if (this.panel !== closed) return;
      this.panel = undefined;
      // A new panel starts afresh: it never shows what a closed one had loaded.
      this.complete = undefined;
    };
    this.panel = openViewPanel({ ...this.options(), extensionUri: this.extensionUri, restored, onMessage: (m) => this.handleMessage(m) }, forget);
    return this.panel;
  }

  /** Closes the panel (for the tests). */
  close(): void {
    this.panel?.dispose();
  }

  /** Leaves the panel open: on a reload VS Code keeps it to be restored by the serializer. */
  dispose(): void {
    this.panel = undefined;
  }
}
