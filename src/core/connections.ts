// The connections under node-fetch: keep-alive agents that let each request watch its own
// response (node-fetch v2 never notices a body cut short under Content-Length: it waits for ever)
// and that keep a path exactly as written (WHATWG parsing collapses an encoded `..`).

import * as http from 'node:http';
import * as https from 'node:https';

type RequestHook = (req: http.ClientRequest) => void;
type AddRequest = (this: http.Agent, req: http.ClientRequest, options: unknown) => void;
type Watched<A extends http.Agent> = A & { next?: RequestHook };

/**
 * Hands the next ClientRequest the agent receives to `next`. node-fetch builds its request and
 * calls `agent.addRequest` synchronously inside fetch(), so the hook set just before a fetch()
 * call meets exactly that fetch's request.
 */
function watch<A extends http.Agent>(agent: A): Watched<A> {
  const watched = agent as Watched<A>;
  const add = (agent as unknown as { addRequest: AddRequest }).addRequest;
  (watched as unknown as { addRequest: AddRequest }).addRequest = function (req, options) {
    const hook = watched.next;
    watched.next = undefined;
    hook?.(req);
    add.call(this, req, options);
  };
  return watched;
}

export interface PreparedRequest {
  /** node-fetch's `agent` option for this one request. */
  agent: (parsed: URL) => http.Agent;
  /** Call right after fetch() returned: forgets the hook if no request took it. */
  done(): void;
}

export class Connections {
  private readonly http = watch(new http.Agent({ keepAlive: true }));
  private readonly https = watch(new https.Agent({ keepAlive: true }));

  /**
   * Prepares one fetch(): `onRequest` will see its ClientRequest, and `exactPath` (path and
   * query) replaces what URL parsing made of it, on the first request only (a redirect's URL is
   * the server's).
   */
  prepare(exactPath: string | undefined, onRequest: RequestHook): PreparedRequest {
    this.http.next = onRequest;
    this.https.next = onRequest;
    let first = true;
    return {
      agent: (parsed) => {
        if (first && exactPath !== undefined) (parsed as unknown as { path: string }).path = exactPath;
        first = false;
        return parsed.protocol === 'https:' ? this.https : this.http;
      },
      done: () => {
        if (this.http.next === onRequest) this.http.next = undefined;
        if (this.https.next === onRequest) this.https.next = undefined;
      },
    };
  }

  /** Closes the idle keep-alive connections. */
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/**
 * Calls `cutShort` when the response to `req` ends before its body is complete (the connection
 * closed mid-body). Redirects are node-fetch's to follow and are left alone.
 */
export function onBodyCutShort(req: http.ClientRequest, cutShort: (status: number) => void): void {
  req.once('response', (res: http.IncomingMessage) => {
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) return;
    res.once('close', () => {
      if (!res.complete) cutShort(status);
    });
  });
}
