// The Records view when the service misbehaves (issue 6), in a real extension host against the
// sandbox's fault injection: every fault class ends in an error node whose message names what
// failed, with Retry, while the records already shown stay (marked stale); faults the client
// rides out end in the normal records; lists whose pages repeat or whose Link loops show each
// record once. Then concurrency: one mint for a refresh that arrives mid-mint, and a switch of
// environment mid-mint never shows the old environment's token. No promise goes unhandled.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { decodeJwtClaims } from '../../src/core/service';
import type { HealthDataExtensionApi } from '../../src/extension/extension';
import type { TreeItemNode } from '../../src/extension/tree/nodes';
import { FaultRule, Sandbox, SandboxOptions, startSandbox } from '../../src/sandbox/server';
import { mints } from '../unit/support/client';
import { expectedRecords, recordsUnder, resetSettings, resourceRoot, runningSandbox, setSetting, trackUnhandledRejections, withSandbox } from './support/extension';

const TOKEN_PATH = '/v1/admin/token';
/** Long enough for any normal reply on a busy machine; the latency faults wait far longer. */
const TIMEOUT_MS = 4_000;

/**
 * A second service, started with `options` and listed as the environment `name`, for `use`,
 * which gets `signIn` to store its credentials (unchecked). Afterwards: its credentials and the
 * environment gone, the local sandbox selected again, the service closed.
 */
async function withOtherService(name: string, options: SandboxOptions, use: (service: Sandbox, signIn: () => Thenable<unknown>) => Promise<void>): Promise<void> {
  const service = await startSandbox(options);
  try {
    await setSetting('environments', [{ name, baseUrl: service.url, clientId: service.clientId }]);
    await use(service, () =>
      vscode.commands.executeCommand('healthData.setCredentials', { environment: name, clientId: service.clientId, clientSecret: service.clientSecret, skipCheck: true }),
    );
  } finally {
    await vscode.commands.executeCommand('healthData.clearCredentials', { environment: name, confirm: false });
    await setSetting('environments', undefined);
    await vscode.commands.executeCommand('healthData.selectEnvironment', { environment: 'Local sandbox' });
    await service.close();
  }
}

describe('reliability: the Records view under faults', function () {
  this.timeout(30_000);
  let api: HealthDataExtensionApi;
  let rejections: ReturnType<typeof trackUnhandledRejections>;

  const sandbox = () => runningSandbox(api);
  const item = (node: TreeItemNode) => api.tree.getTreeItem(node);
  const label = (node: TreeItemNode) => String(item(node).label);
  const activityRoot = () => resourceRoot(api, 'activity', 'no activity root');

  const shownIds = async () => (await recordsUnder(api, await activityRoot())).map((n) => n.node.id!).sort();
  // (No source filter is set in this suite.)
  const expectedIds = () => expectedRecords(api, 'activity').map((r) => r.id).sort();

  /** Faults gone, a refresh: every resource shows the sandbox's records again, no error, not stale. */
  async function recover(): Promise<void> {
    sandbox().clearFaults();
    await vscode.commands.executeCommand('healthData.refresh');
    await api.tree.whenLoaded();
    assert.equal(api.tree.state('activity').error, undefined);
    assert.equal(api.tree.state('activity').stale, false);
  }

  before(async () => {
    rejections = trackUnhandledRejections();
    await resetSettings();
    api = await withSandbox();
    await setSetting('pageSize', 500);
    await setSetting('requestTimeout', TIMEOUT_MS);
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
  });

  beforeEach(recover);

  after(async () => {
    sandbox().clearFaults();
    await api.tree.whenLoaded();
    await resetSettings();
    rejections.stop();
  });

  /** [what, fault (on /activities), what the message must say] for faults the client cannot ride out. */
  const failures: Array<[string, Omit<FaultRule, 'path'>, RegExp]> = [
    ['latency past the request timeout', { fault: 'latency', latencyMs: 120_000 }, new RegExp(`GET /v1/human/activities/summaries: no complete reply within ${TIMEOUT_MS} ms \\(timed out\\)`)],
    ['a body trickling past the timeout', { fault: 'slow-body', latencyMs: 120_000 }, /activities\/summaries: no complete reply within \d+ ms \(timed out\)/],
    ['429 without Retry-After, every time', { fault: '429' }, /activities\/summaries: 429 Too Many Requests: .*4 attempts/],
    ['429 with Retry-After, every time', { fault: '429', retryAfter: 1 }, /activities\/summaries: 429 Too Many Requests: .*4 attempts/],
    ['500', { fault: '500' }, /activities\/summaries: 500 Internal Server Error: The service failed to answer \(sandbox fault 500\) \(request id \w+\)/],
    ['502, every time', { fault: '502' }, /activities\/summaries: 502 Bad Gateway: .*4 attempts/],
    ['503, every time', { fault: '503' }, /activities\/summaries: 503 Service Unavailable: .*4 attempts/],
    ['an HTML error page', { fault: 'html' }, /activities\/summaries: 502 Bad Gateway: the server answered with an HTML page, not JSON/],
    ['malformed JSON', { fault: 'malformed-json' }, /activities\/summaries: the reply is not valid JSON/],
    // Noticed when the connection closes, not at the timeout, though VS Code's proxy patch puts
    // its own agent in front of the client's.
    ['a truncated body', { fault: 'truncated' }, /activities\/summaries: the reply was cut short after 200 OK \(truncated body\).*4 attempts/],
    ['a connection reset', { fault: 'reset' }, /activities\/summaries: network error: /],
    ['an error status in a 200 body', { fault: 'status-in-body' }, /activities\/summaries: 401 Unauthorized: Unauthorized \(in the body of a 200 reply\)/],
    ['an expired token, every time', { fault: 'expired-token' }, /401 Unauthorized: The access token has expired .*a freshly minted client token was rejected too/],
    ['a revoked token, every time', { fault: 'revoked-token' }, /401 Unauthorized: The access token has been revoked .*a freshly minted client token was rejected too/],
  ];

  it('runs behind VS Code\'s proxy patch, whose agent stands in front of the client\'s', () => {
    // What the truncated-body case below relies on to mean anything.
    assert.equal(vscode.workspace.getConfiguration('http').get('proxySupport'), 'override');
  });

  for (const [what, fault, says] of failures) {
    it(`${what}: an error node that says so, with Retry; the records shown stay, marked stale`, async () => {
      const before = await shownIds();
      assert.deepEqual(before, expectedIds());
      sandbox().addFault({ ...fault, path: '/activities' });
      assert.equal(await vscode.commands.executeCommand('healthData.refresh'), true);
      const rootNode = await activityRoot();
      const kids = await api.tree.getChildren(rootNode);
      const error = kids[0];
      assert.equal(error?.type, 'error', kids.map((k) => k.type).join());
      assert.match(label(error), /^Refresh failed; showing older data: /);
      assert.match(String(item(error).tooltip), says);
      assert.equal(item(error).contextValue, 'error', 'no Retry action');
      assert.match(String(item(rootNode).description), /\(stale: refresh failed\)/);
      assert.deepEqual(await shownIds(), before, 'the records shown before are gone');
      // Retry once the service is well again.
      sandbox().clearFaults();
      assert.equal(await vscode.commands.executeCommand('healthData.retry', error), true);
      assert.ok((await api.tree.getChildren(await activityRoot())).every((k) => k.type !== 'error'));
      assert.deepEqual(await shownIds(), expectedIds());
    });
  }

  it('a failure on the first load (nothing shown yet) is an error node alone, and Retry fills the view', async () => {
    sandbox().addFault({ fault: 'html', path: '/activities' });
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 14 });
    const kids = await api.tree.getChildren(await activityRoot());
    assert.deepEqual(kids.map((k) => k.type), ['error']);
    assert.match(label(kids[0]), /502 Bad Gateway: the server answered with an HTML page/);
    sandbox().clearFaults();
    await vscode.commands.executeCommand('healthData.retry', kids[0]);
    assert.deepEqual(await shownIds(), expectedIds());
    await vscode.commands.executeCommand('healthData.setDateRange', { days: 30 });
  });

  const riddenOut: Array<[string, () => void, (mintsBefore: number) => void]> = [
    ['429 with Retry-After, once', () => sandbox().addFault({ fault: '429', retryAfter: 1, path: '/activities', times: 1 }), () => undefined],
    ['503, once', () => sandbox().addFault({ fault: '503', path: '/activities', times: 1 }), () => undefined],
    ['an expired token, once: one re-mint', () => sandbox().addFault({ fault: 'expired-token', path: '/activities', times: 1 }), (n) => assert.equal(mints(sandbox()), n + 1)],
    ['every token revoked: one re-mint', () => sandbox().revokeTokens(), (n) => assert.equal(mints(sandbox()), n + 1)],
    ['a token reply without expires_in: 24 hours assumed', () => {
      sandbox().revokeTokens();
      sandbox().addFault({ fault: 'no-expires-in', times: 1 });
    }, () => {
      assert.equal(api.session.currentToken?.expiresInAssumed, true);
      assert.equal(api.session.currentToken?.expiresIn, 86_400);
    }],
    ['a token that is not a JWT: used, without claims', () => {
      sandbox().revokeTokens();
      sandbox().addFault({ fault: 'non-jwt-token', times: 1 });
    }, () => {
      const token = api.session.currentToken;
      assert.ok(token && decodeJwtClaims(token.token) === undefined && token.claims === undefined);
    }],
    ['pages that repeat records', () => sandbox().addFault({ fault: 'repeat-page' }), () => undefined],
    ['a Link header that loops back to the first page', () => sandbox().addFault({ fault: 'link-loop' }), () => undefined],
  ];

  for (const [what, arrange, verify] of riddenOut) {
    it(`${what}: the records as if nothing happened`, async () => {
      await shownIds();
      const mintsBefore = mints(sandbox());
      arrange();
      assert.equal(await vscode.commands.executeCommand('healthData.refresh'), true);
      const kids = await api.tree.getChildren(await activityRoot());
      assert.ok(kids.every((k) => k.type !== 'error'), kids.filter((k) => k.type === 'error').map(label).join(' | '));
      const shown = await shownIds();
      assert.deepEqual(shown, expectedIds());
      assert.equal(new Set(shown).size, shown.length, 'a record shown twice');
      assert.equal(api.tree.state('activity').incomplete, undefined);
      verify(mintsBefore);
    });
  }

  it('paging by hand over a looping Link: each record once, none missing, and Load more ends', async () => {
    // (Repeating pages paged by hand: tree.test.ts. A request gets one fault that shapes its reply.)
    await setSetting('pageSize', 6);
    try {
      sandbox().addFault({ fault: 'link-loop' });
      const rootNode = await activityRoot();
      let more: TreeItemNode | undefined;
      for (let pages = 0; (more = (await api.tree.getChildren(rootNode)).find((n) => n.type === 'loadMore')); pages++) {
        assert.ok(pages < 50, 'Load more never ends');
        await vscode.commands.executeCommand('healthData.loadMore', more);
      }
      const shown = await shownIds();
      assert.deepEqual(shown, expectedIds());
      assert.equal(api.tree.state('activity').incomplete, undefined);
    } finally {
      await setSetting('pageSize', 500);
    }
  });

  it('a service that caps the page size and sends no paging headers: the list is not shown as complete', async () => {
    // limit=5 is asked, 3 come back, and nothing says whether more exist.
    await setSetting('pageSize', 5);
    try {
      await withOtherService('Capped service', { port: 0, days: 10, seed: 'capped', paging: 'offset', maxLimit: 3 }, async (capped, signIn) => {
        await signIn();
        const state = () => api.tree.state('activity');
        await activityRoot();
        const shown = (await recordsUnder(api, await activityRoot())).length;
        assert.ok(shown < capped.dataset.activity.length);
        assert.ok(state().hasMore || state().incomplete !== undefined, `${shown} of ${capped.dataset.activity.length} records shown as the whole list: no Load more, no incomplete mark`);
      });
    } finally {
      await setSetting('pageSize', 500);
    }
  });

  describe('concurrency', () => {
    it('a refresh while a token is being minted waits for that mint: one POST /v1/admin/token', async () => {
      api.session.invalidate();
      await api.tree.whenLoaded();
      const before = mints(sandbox());
      sandbox().addFault({ fault: 'latency', path: TOKEN_PATH, latencyMs: 500, times: 1 });
      const minting = vscode.commands.executeCommand<{ claims?: { jti?: string } }>('healthData.mintToken');
      await new Promise((r) => setTimeout(r, 150));
      const refreshing = vscode.commands.executeCommand('healthData.refresh');
      const [minted] = await Promise.all([minting, refreshing]);
      await api.tree.whenLoaded();
      assert.equal(mints(sandbox()), before + 1, 'more than one mint');
      assert.equal(api.session.currentToken?.claims?.jti, minted?.claims?.jti);
      assert.deepEqual(await shownIds(), expectedIds());
    });

    it('a switch of environment during a mint: the old environment\'s token is never the current one', async () => {
      const name = 'Other service';
      const seen: Array<string | undefined> = [];
      const sub = api.session.onDidChangeToken((t) => seen.push(t ? decodeJwtClaims(t.token)?.sub as string | undefined : undefined));
      try {
        await withOtherService(name, { port: 0, days: 10, seed: 'other-env', clientId: 'reliability-other' }, async (other, signIn) => {
          api.session.invalidate();
          sandbox().addFault({ fault: 'latency', path: TOKEN_PATH, latencyMs: 1_500, times: 1 });
          const refreshing = vscode.commands.executeCommand('healthData.refresh');
          await new Promise((r) => setTimeout(r, 300));
          const switchedAt = seen.length;
          await signIn();
          await refreshing;
          await new Promise((r) => setTimeout(r, 1_500));
          await vscode.commands.executeCommand('healthData.refresh');
          await api.tree.whenLoaded();
          assert.equal(api.session.active?.name, name);
          assert.deepEqual(seen.slice(switchedAt).filter((sub) => sub !== undefined && sub !== 'reliability-other'), [], 'a token of the old environment was announced after the switch');
          assert.equal(decodeJwtClaims(api.session.currentToken!.token)?.sub, 'reliability-other');
          const ids = new Set(other.dataset.activity.map((r) => r.id));
          const shown = await recordsUnder(api, await activityRoot());
          assert.ok(shown.length > 0 && shown.every((n) => ids.has(n.node.id!)), 'records of the old environment are shown');
        });
      } finally {
        sub.dispose();
      }
    });
  });

  // Last: mocha runs a suite's own tests before its nested suites.
  describe('afterwards', () => {
    it('no promise was left unhandled by anything above', () => rejections.assertNone());
  });
});
