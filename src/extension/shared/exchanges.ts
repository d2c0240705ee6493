// Which exchange a command works on: the one it was handed (an Exchange, or `{ exchangeId }` of
// this session's), or one the user picks from the session's latest exchanges.

import * as vscode from 'vscode';
import { exchangeTitle, formatBytes } from '../../core/exchanges';
import { HealthDataError } from '../../core/errors';
import type { Exchange } from '../../core/service';
import { inertText, shortText } from '../../core/views';
import type { Session } from '../account/session';

/** An Exchange handed in by another command or view, or a reference to one of the session's. */
export function exchangeArgument(session: Session, arg: unknown): Exchange | undefined {
  if (arg === undefined || arg === null) return undefined;
  if (isExchange(arg)) return arg;
  const id = typeof arg === 'object' ? (arg as { exchangeId?: unknown }).exchangeId : undefined;
  if (typeof id === 'string') {
    const found = session.recentExchanges().find((e) => e.id === id);
    if (!found) throw new HealthDataError('usage', vscode.l10n.t('That request is no longer among the latest requests of this session.'));
    return found;
  }
  throw new HealthDataError('usage', vscode.l10n.t('Pass an exchange or {0}.', '{ exchangeId }'));
}

function isExchange(value: unknown): value is Exchange {
  if (!value || typeof value !== 'object') return false;
  const e = value as Partial<Exchange>;
  return typeof e.id === 'string' && typeof e.url === 'string' && (e.method === 'GET' || e.method === 'POST') && !!e.requestHeaders && typeof e.requestHeaders === 'object';
}

interface ExchangeItem extends vscode.QuickPickItem {
  readonly exchange: Exchange;
}

/** A quick pick item that names an exchange: its status, what it asked, when and where. */
export function exchangeItem(session: Session, exchange: Exchange): ExchangeItem {
  const status = exchange.status === undefined ? vscode.l10n.t('failed') : String(exchange.status);
  const icon = exchange.error || exchange.status === undefined || exchange.status >= 400 ? '$(error)' : '$(pass)';
  const time = new Date(exchange.startedAt).toLocaleTimeString();
  const size = exchange.responseBytes === undefined ? '' : ` · ${formatBytes(exchange.responseBytes)}`;
  const environment = session.environmentOf(exchange.id)?.name;
  return {
    label: `${icon} ${status} ${shortText(exchangeTitle(exchange), 80)}`,
    description: `${time} · ${exchange.durationMs} ms${size}`,
    detail: inertText(`${environment ? `${environment} · ` : ''}${exchange.method} ${shortText(exchange.url, 160)}`),
    exchange,
  };
}

/** Asks for one of `exchanges`; undefined when dismissed. Says so when there is none to pick. */
export async function pickExchange(session: Session, exchanges: readonly Exchange[], title: string, none: string): Promise<Exchange | undefined> {
  if (exchanges.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    exchanges.map((e) => exchangeItem(session, e)),
    { title, placeHolder: vscode.l10n.t('Requests of this session, newest first'), matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.exchange;
}
