// The status bar item: the active environment and the client token's time left. Its tooltip
// shows the token's claims, never the token. A click switches environment.

import * as vscode from 'vscode';
import { ClientToken } from '../../core/service';
import { escapeMarkdown } from '../../core/views';
import { Session } from './session';

export function formatTimeLeft(ms: number): string {
  if (ms <= 0) return vscode.l10n.t('expired');
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return vscode.l10n.t('<1m');
  const h = Math.floor(minutes / 60);
  return h ? `${h}h ${minutes % 60}m` : `${minutes}m`;
}

export class TokenStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('healthData.status', vscode.StatusBarAlignment.Left, 50);
  private readonly timer: NodeJS.Timeout;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly session: Session) {
    this.item.name = vscode.l10n.t('Health Data environment');
    this.item.command = 'healthData.selectEnvironment';
    this.subscriptions = [session.onDidChange(() => this.update()), session.onDidChangeToken(() => this.update())];
    // Time left changes by the minute; the item is cheap to update.
    this.timer = setInterval(() => this.update(), 30_000);
    this.update();
  }

  /** What the item shows now (for the tests: status bar items cannot be read back otherwise). */
  get text(): string {
    return this.item.text;
  }

  get tooltipText(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : t?.value ?? '';
  }

  update(): void {
    const env = this.session.active;
    if (!env) {
      this.item.text = `$(server-environment) ${vscode.l10n.t('Health Data: not set up')}`;
      this.item.tooltip = vscode.l10n.t('Click to choose an environment or start the local sandbox.');
      this.item.show();
      return;
    }
    const token = this.session.currentToken;
    const left = token ? ` · $(key) ${formatTimeLeft(token.expiresAt - Date.now())}` : '';
    this.item.text = `$(server-environment) ${env.name}${left}`;
    this.item.tooltip = this.tooltip(env.name, env.baseUrl, token);
    this.item.show();
  }

  private tooltip(name: string, baseUrl: string, token: ClientToken | undefined): vscode.MarkdownString {
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    md.supportHtml = false;
    md.appendMarkdown(`**${escapeMarkdown(name)}**  \n${escapeMarkdown(baseUrl)}\n\n`);
    if (!token) {
      md.appendMarkdown(escapeMarkdown(vscode.l10n.t('No client token yet: one is minted on the first request.')));
      return md;
    }
    md.appendMarkdown(`${escapeMarkdown(vscode.l10n.t('Client token expires {0} ({1} left)', new Date(token.expiresAt).toLocaleString(), formatTimeLeft(token.expiresAt - Date.now())))}\n\n`);
    if (token.claims) {
      for (const [claim, value] of Object.entries(token.claims)) {
        const shown = (claim === 'exp' || claim === 'iat' || claim === 'nbf') && typeof value === 'number' ? new Date(value * 1000).toISOString() : JSON.stringify(value);
        md.appendMarkdown(`- ${escapeMarkdown(claim)}: ${escapeMarkdown(String(shown).slice(0, 80))}\n`);
      }
    } else {
      md.appendMarkdown(escapeMarkdown(vscode.l10n.t('The token is not a JWT: no claims to show.')));
    }
    return md;
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
