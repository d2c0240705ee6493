// The environments a user can talk to: the default one from the top-level settings, the named
// ones in `healthData.environments`, and the local sandbox while it runs. Secrets are not here:
// they live in SecretStorage, keyed by environment name (see credentials.ts).

import * as vscode from 'vscode';
import { TokenPresentation } from '../../core/service';
import { checkServiceUrl } from '../../core/config';

export const SANDBOX_ENVIRONMENT = 'Local sandbox';
export const DEFAULT_ENVIRONMENT = 'Default';

export interface Environment {
  readonly name: string;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly origin: 'settings' | 'sandbox';
}

export interface RequestSettings {
  presentation: TokenPresentation;
  pageSize: number;
  timeoutMs: number;
  defaultRangeDays: number;
  groupBy: 'resource' | 'date';
}

interface EnvironmentSetting {
  name?: unknown;
  authUrl?: unknown;
  baseUrl?: unknown;
  clientId?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Reads the environments from settings; `sandbox` is added while the local sandbox runs. */
export function readEnvironments(sandbox: Environment | undefined): Environment[] {
  const config = vscode.workspace.getConfiguration('healthData');
  const envs: Environment[] = [];
  const baseUrl = str(config.get('baseUrl'));
  if (baseUrl) {
    envs.push({
      name: DEFAULT_ENVIRONMENT,
      baseUrl,
      authUrl: str(config.get('authUrl')) || baseUrl,
      clientId: str(config.get('clientId')),
      origin: 'settings',
    });
  }
  const named = config.get<EnvironmentSetting[]>('environments') ?? [];
  for (const e of Array.isArray(named) ? named : []) {
    const name = str(e?.name);
    const base = str(e?.baseUrl);
    if (!name || !base || name === SANDBOX_ENVIRONMENT || envs.some((x) => x.name === name)) continue;
    envs.push({ name, baseUrl: base, authUrl: str(e.authUrl) || base, clientId: str(e.clientId), origin: 'settings' });
  }
  if (sandbox) envs.push(sandbox);
  return envs;
}

/** The active environment's name as set, even when no such environment exists (yet). */
export function activeEnvironmentName(): string {
  return str(vscode.workspace.getConfiguration('healthData').get('activeEnvironment'));
}

/** The environment in use: the one named by `activeEnvironment`, else the first there is. */
export function pickActive(envs: readonly Environment[]): Environment | undefined {
  const wanted = activeEnvironmentName();
  return envs.find((e) => e.name === wanted) ?? (wanted ? undefined : envs[0]);
}

export async function setActiveEnvironment(name: string): Promise<void> {
  await vscode.workspace.getConfiguration('healthData').update('activeEnvironment', name, vscode.ConfigurationTarget.Global);
}

/** Problems with an environment's addresses, as messages a person can act on. */
export function checkEnvironment(env: Environment): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const [what, url] of [['Base URL', env.baseUrl], ['Auth URL', env.authUrl]] as const) {
    try {
      const check = checkServiceUrl(url, `${what} of "${env.name}"`);
      if (check.warning) warnings.push(check.warning);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { errors, warnings: [...new Set(warnings)] };
}

export function readRequestSettings(): RequestSettings {
  const config = vscode.workspace.getConfiguration('healthData');
  const presentation: TokenPresentation =
    config.get('token.presentation') === 'query'
      ? { mode: 'query', parameter: 'access_token' }
      : {
          mode: 'header',
          headerName: str(config.get('token.headerName')) || 'Authorization',
          scheme: typeof config.get('token.scheme') === 'string' ? str(config.get('token.scheme')) : 'Bearer',
        };
  const pageSize = clampInt(config.get('pageSize'), 1, 500, 50);
  const timeoutMs = clampInt(config.get('requestTimeout'), 100, 600_000, 30_000);
  const range = config.get('defaultDateRange');
  const defaultRangeDays = range === 'last7Days' ? 7 : range === 'last90Days' ? 90 : 30;
  const groupBy = config.get('tree.groupBy') === 'date' ? 'date' : 'resource';
  return { presentation, pageSize, timeoutMs, defaultRangeDays, groupBy };
}

/**
 * Where this window's token settings put the token, as a pasted request or another tool's file
 * carries it: the query parameters and the headers to leave out of what is read (the extension
 * adds its own token).
 */
export function tokenCarriers(): { readonly params: string[]; readonly headers: string[] } {
  const { presentation } = readRequestSettings();
  return presentation.mode === 'query' ? { params: [presentation.parameter], headers: [] } : { params: [], headers: [presentation.headerName] };
}

function clampInt(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}
