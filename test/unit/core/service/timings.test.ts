// Where an attempt's time went, measured on real connections to the sandbox on loopback: a new
// connection and a reused one, a host name looked up, an HTTPS front with its handshake, a reply
// the sandbox holds back, a body it trickles, a timeout and a port where nothing listens.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { AttemptTimings, Exchange, TIMING_PHASES, attemptTimingsOf } from '../../../../src/core/service';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, sandboxForSuite } from '../../support/client';
import { repoRoot } from '../../support/repo';

const ITEM = `/v1/human/activities/summaries/${TODAY}`;

/** The phases' sum: never more than the attempt took (each is rounded to a tenth). */
function phaseSum(t: AttemptTimings): number {
  return TIMING_PHASES.reduce((sum, phase) => sum + (t[phase] ?? 0), 0);
}

function assertWithin(e: Exchange): void {
  for (const a of e.attempts) {
    if (!a.timings) continue;
    for (const phase of TIMING_PHASES) {
      const v = a.timings[phase];
      if (v !== undefined) assert.ok(Number.isFinite(v) && v >= 0, `${phase} ${v}`);
    }
    assert.ok(phaseSum(a.timings) <= a.durationMs + 1, `${phaseSum(a.timings)} ms of phases in an attempt of ${a.durationMs} ms`);
  }
}

describe('client: where an attempt’s time went', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  const recording = (options: Parameters<LeakWatch['client']>[1] = {}) => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, { ...options, onExchange: (e) => exchanges.push(e) });
    return { client, exchanges };
  };
  const last = (e: Exchange): AttemptTimings => {
    assertWithin(e);
    const t = e.attempts[e.attempts.length - 1].timings;
    assert.ok(t, `no timings on ${e.method} ${e.url}`);
    return t;
  };

  it('a new connection to an address: connect, send, first byte, download; then the connection reused', async () => {
    const { client, exchanges } = recording();
    await client.getRecord('activity', TODAY);
    const [mint, data] = exchanges.map(last);
    const port = new URL(sandbox.baseUrl).port;
    // An address is not looked up; the first request opens the connection.
    assert.equal(mint.dnsMs, undefined);
    assert.equal(mint.reused, undefined);
    assert.equal(mint.tlsMs, undefined);
    for (const phase of ['queuedMs', 'connectMs', 'sendMs', 'firstByteMs', 'downloadMs'] as const) assert.equal(typeof mint[phase], 'number', phase);
    assert.equal(mint.remote, `127.0.0.1:${port}`);
    // The next one goes over it: nothing to connect.
    assert.equal(data.reused, true);
    assert.equal(data.connectMs, undefined);
    assert.equal(data.dnsMs, undefined);
    for (const phase of ['sendMs', 'firstByteMs', 'downloadMs'] as const) assert.equal(typeof data[phase], 'number', phase);
    assert.equal(data.remote, `127.0.0.1:${port}`);
    client.dispose();
  });

  it('a host name is looked up first', async () => {
    const { client, exchanges } = recording({ authUrl: sandbox.authUrl.replace('127.0.0.1', 'localhost'), baseUrl: sandbox.baseUrl.replace('127.0.0.1', 'localhost') });
    await client.getRecord('activity', TODAY);
    const mint = last(exchanges[0]);
    assert.equal(typeof mint.dnsMs, 'number');
    assert.equal(typeof mint.connectMs, 'number');
    assert.match(mint.remote ?? '', /^(?:127\.0\.0\.1|\[::1\]):\d+$/);
    client.dispose();
  });

  it('over HTTPS: the handshake after the connect, and the TLS version', async () => {
    // A TLS front on loopback for the sandbox, with the tests' own self-signed certificate.
    const folder = join(repoRoot, 'test/fixtures/tls');
    const front = tls.createServer({ key: readFileSync(join(folder, 'localhost-key.pem')), cert: readFileSync(join(folder, 'localhost-cert.pem')) }, (clear) => {
      const upstream = net.connect(Number(new URL(sandbox.baseUrl).port), '127.0.0.1');
      clear.pipe(upstream).pipe(clear);
      clear.on('error', () => upstream.destroy());
      upstream.on('error', () => clear.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const origin = `https://127.0.0.1:${(front.address() as net.AddressInfo).port}`;
    const trusted = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const { client, exchanges } = recording({ authUrl: sandbox.authUrl.replace(/^http:\/\/[^/]+/, origin), baseUrl: sandbox.baseUrl.replace(/^http:\/\/[^/]+/, origin) });
      const record = (await client.getRecord('activity', TODAY)) as { date: string };
      assert.equal(record.date, TODAY);
      const [mint, data] = exchanges.map(last);
      assert.equal(typeof mint.connectMs, 'number');
      assert.equal(typeof mint.tlsMs, 'number');
      assert.match(mint.tlsProtocol ?? '', /^TLSv1\.[23]$/);
      assert.equal(mint.remote, `127.0.0.1:${(front.address() as net.AddressInfo).port}`);
      // Reused: no second handshake, the version still known.
      assert.equal(data.reused, true);
      assert.equal(data.tlsMs, undefined);
      assert.match(data.tlsProtocol ?? '', /^TLSv1\.[23]$/);
      client.dispose();
    } finally {
      if (trusted === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = trusted;
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('a redirect: the phases are those of the request that was answered, the hop before it is queued', async () => {
    // A front on loopback that sends every request on to the sandbox with a 307.
    const front = http.createServer((req, res) => {
      res.writeHead(307, { location: `${sandbox.baseUrl}${req.url ?? '/'}`, connection: 'close' });
      res.end();
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}`;
    try {
      const { client, exchanges } = recording({ authUrl: sandbox.authUrl.replace(/^http:\/\/[^/]+/, origin), baseUrl: sandbox.baseUrl.replace(/^http:\/\/[^/]+/, origin) });
      await client.getRecord('activity', TODAY);
      const data = exchanges[exchanges.length - 1];
      assert.equal(data.status, 200);
      const t = last(data);
      // The sandbox answered: its address, and every phase up to the body read.
      assert.equal(t.remote, `127.0.0.1:${new URL(sandbox.baseUrl).port}`);
      for (const phase of ['queuedMs', 'sendMs', 'firstByteMs', 'downloadMs'] as const) assert.equal(typeof t[phase], 'number', phase);
      client.dispose();
    } finally {
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('a reply held back is time to first byte; a body trickled in is download', async () => {
    const { client, exchanges } = recording();
    sandbox.addFault({ fault: 'latency', path: ITEM, latencyMs: 150, times: 1 });
    await client.getRecord('activity', TODAY);
    const held = last(exchanges[exchanges.length - 1]);
    assert.ok((held.firstByteMs ?? 0) >= 140, `first byte after ${held.firstByteMs} ms`);
    sandbox.addFault({ fault: 'slow-body', path: ITEM, latencyMs: 150, times: 1 });
    await client.getRecord('activity', TODAY);
    const trickled = last(exchanges[exchanges.length - 1]);
    assert.ok((trickled.downloadMs ?? 0) >= 100, `body read in ${trickled.downloadMs} ms`);
    client.dispose();
  });

  it('a timeout ends the phases where it came; a port where nothing listens has no connect', async () => {
    const { client, exchanges } = recording({ timeoutMs: 150, maxRetries: 0 });
    await client.getRecord('activity', TODAY);
    sandbox.addFault({ fault: 'latency', path: ITEM, latencyMs: 5000, times: 1 });
    await watch.rejects(client.getRecord('activity', TODAY), 'timeout');
    const timedOut = last(exchanges[exchanges.length - 1]);
    assert.equal(typeof timedOut.sendMs, 'number');
    assert.equal(timedOut.firstByteMs, undefined);
    assert.equal(timedOut.downloadMs, undefined);
    client.dispose();

    // A port that was free a moment ago: the connect is refused.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const refused = recording({ authUrl: `http://127.0.0.1:${port}`, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    await watch.rejects(refused.client.getRecord('activity', TODAY), 'network', /refused/);
    const attempt = refused.exchanges[0].attempts[0];
    assert.ok(attempt.error);
    assert.ok(attempt.timings, 'a refused attempt keeps the phases it had');
    assert.equal(typeof attempt.timings.queuedMs, 'number');
    assert.equal(attempt.timings.connectMs, undefined);
    assert.equal(attempt.timings.firstByteMs, undefined);
    refused.client.dispose();
  });

  it('stored timings are read back checked: phases are numbers ≥ 0, anything else is dropped', () => {
    assert.deepEqual(attemptTimingsOf({ queuedMs: 0.4, connectMs: 1, sendMs: 0, firstByteMs: 8.2, downloadMs: 0.3, remote: '127.0.0.1:8787' }), {
      queuedMs: 0.4,
      connectMs: 1,
      sendMs: 0,
      firstByteMs: 8.2,
      downloadMs: 0.3,
      remote: '127.0.0.1:8787',
    });
    assert.deepEqual(attemptTimingsOf({ dnsMs: -1, connectMs: 'x', tlsMs: Infinity, firstByteMs: 3, reused: 'yes', remote: 'x'.repeat(200), tlsProtocol: 7 }), { firstByteMs: 3 });
    for (const bad of [undefined, null, 3, 'x', [], {}, { dnsMs: -1 }]) assert.equal(attemptTimingsOf(bad), undefined);
    assert.deepEqual(attemptTimingsOf({ reused: true, tlsProtocol: 'TLSv1.3' }), { reused: true, tlsProtocol: 'TLSv1.3' });
  });
});
