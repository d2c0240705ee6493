// Health Data: Copy as Code: an exchange as cURL, fetch, Python requests or a `health-data`
// command on the clipboard. The token is `$HEALTH_DATA_TOKEN`, minted by the snippet (or by the
// CLI) from the client id and secret in the environment; the live token goes in only when the
// user picks that on its own, after a warning.

import * as vscode from 'vscode';
import { SNIPPET_LANGUAGES, SnippetLanguage, codeSnippet, requestOfExchange } from '../../core/exchanges';
import { HealthDataError } from '../../core/errors';
import { readRequestSettings } from '../account/environments';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { exchangeArgument, pickExchange } from '../shared/exchanges';
import { showError } from '../shared/showError';

export interface CopyAsCodeOptions {
  /** Skips the language pick. */
  readonly language?: SnippetLanguage;
  /** Skips the token pick: true writes the live token (no further warning: the caller chose). */
  readonly includeLiveToken?: boolean;
}

export interface CopyAsCodeResult {
  readonly language: SnippetLanguage;
  readonly includesLiveToken: boolean;
}

export function registerCopyAsCode(session: Session): vscode.Disposable[] {
  const copyAsCode = async (arg?: unknown, options: CopyAsCodeOptions = {}): Promise<CopyAsCodeResult | undefined> => {
    const exchange =
      exchangeArgument(session, arg) ??
      (await pickExchange(
        session,
        session.recentExchanges(),
        vscode.l10n.t('Copy as Code: which request?'),
        vscode.l10n.t('No request has been sent in this session yet: load records or run a request first.'),
      ));
    if (!exchange) return undefined;
    const language = options.language ?? (await pickLanguage());
    if (!language) return undefined;
    if (!SNIPPET_LANGUAGES.some((l) => l.language === language)) {
      throw new HealthDataError('usage', vscode.l10n.t('There is no snippet language "{0}": use curl, fetch, python or cli.', String(language).slice(0, 30)));
    }
    const data = exchange.purpose !== 'token' && exchange.method === 'GET';
    const includeLive = data ? (options.includeLiveToken ?? (await pickTokenChoice(language))) : false;
    if (includeLive === undefined) return undefined;

    const environment = session.environmentOf(exchange.id) ?? session.active;
    if (!environment) throw new HealthDataError('usage', vscode.l10n.t('No environment is set up, so there is no token address to mint from.'));
    const liveToken = includeLive ? await liveTokenFor(session, environment.name) : undefined;
    const presentation = readRequestSettings().presentation;
    const snippet = codeSnippet(requestOfExchange(exchange, presentation), { language, presentation, authUrl: environment.authUrl, baseUrl: environment.baseUrl, liveToken });
    await vscode.env.clipboard.writeText(snippet.text);
    const label = SNIPPET_LANGUAGES.find((l) => l.language === language)!.label;
    const copied = includeLive
      ? vscode.l10n.t('{0} copied, with the live token in it: treat it like a password.', label)
      : vscode.l10n.t('{0} copied. It mints its token from HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET in the environment; the secret is not in it.', label);
    // A health-data command names in a comment the request's parameters it has no option for.
    const notCarried = snippet.notCarried?.length
      ? ` ${vscode.l10n.t('The CLI has no option for some of the request\'s parameters: the comment above the command names them.')}`
      : '';
    void vscode.window.showInformationMessage(copied + notCarried);
    return { language, includesLiveToken: includeLive };
  };

  return registerCommands({ 'healthData.copyAsCode': copyAsCode }, (err) => showError(session, err, vscode.l10n.t('Copy as Code failed')));
}

async function pickLanguage(): Promise<SnippetLanguage | undefined> {
  const picked = await vscode.window.showQuickPick(
    SNIPPET_LANGUAGES.map((l) => ({ label: l.label, language: l.language })),
    { title: vscode.l10n.t('Copy as Code: which language?') },
  );
  return picked?.language;
}

/** The token choice, on its own: the variable by default; the live token only after a warning. */
async function pickTokenChoice(language: SnippetLanguage): Promise<boolean | undefined> {
  const variable =
    language === 'cli'
      ? {
          label: vscode.l10n.t('Token minted by health-data (recommended)'),
          detail: vscode.l10n.t('The CLI mints it from $HEALTH_DATA_CLIENT_ID and $HEALTH_DATA_CLIENT_SECRET'),
          live: false,
        }
      : {
          label: vscode.l10n.t('Token from $HEALTH_DATA_TOKEN (recommended)'),
          detail: vscode.l10n.t('The snippet first mints it from $HEALTH_DATA_CLIENT_ID and $HEALTH_DATA_CLIENT_SECRET'),
          live: false,
        };
  const live = {
    label: vscode.l10n.t('$(warning) Include the live token'),
    detail: vscode.l10n.t('Anyone who sees the snippet can call the service with it until it expires'),
    live: true,
  };
  const picked = await vscode.window.showQuickPick([variable, live], { title: vscode.l10n.t('Copy as Code: how should the snippet get its token?') });
  if (!picked) return undefined;
  if (!picked.live) return false;
  const include = vscode.l10n.t('Include the Token');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Copy the snippet with the live token in it?'),
    { modal: true, detail: vscode.l10n.t('Whoever reads the clipboard, a chat or a commit with this snippet can use the token until it expires. The client secret is never included.') },
    include,
  );
  return answer === include ? true : undefined;
}

/** The token data calls of the exchange's environment use now; only while that environment is active. */
async function liveTokenFor(session: Session, environment: string): Promise<string> {
  if (session.active?.name !== environment) {
    throw new HealthDataError('usage', vscode.l10n.t('The request went to the environment "{0}", which is not active: switch to it to include its live token.', environment));
  }
  // Data calls present the user access token when one is stored, so that is the live one.
  const user = (await session.credentials.get(environment, 'userAccessToken'))?.trim();
  if (user) return user;
  const { client } = await session.connection();
  return (await client.getClientToken()).token;
}
