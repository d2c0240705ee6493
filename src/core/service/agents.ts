// The connections under node-fetch: keep-alive agents that let each request watch its own
// response (node-fetch v2 never notices a body cut short under Content-Length: it waits for ever)
// and that keep a path exactly as written (WHATWG parsing collapses an encoded `..`).

import * as http from 'node:http';
import * as https from 'node:https';

type RequestHook = (req: http.ClientRequest) => void;
type AddRequest = (this: http.Agent, req: http.ClientRequest, options: unknown) => void;

/**
 * The key under which a request's options carry its hook. node-fetch copies the object our
 * `agent` function receives into the options of http.request(), and every layer between there
 * and Agent.addRequest() copies them with spread or Object.assign, symbols included: Node's
 * ClientRequest, and in VS Code's extension host the proxy patch (`http.proxySupport`), which
 * puts its own agent in front of ours and hands us the request later, after resolving the
 * proxy. So the hook finds its request however late it arrives, and never another's.
 */
const HOOK = Symbol('healthData.requestHook');

type Tagged = { [HOOK]?: RequestHook };

/**
 * Agent.addRequest, calling first the hook the options carry with the ClientRequest. One
 * function for every agent, not a closure per agent: its optimized code outlives a client.
 */
const watchedAddRequest: AddRequest = function (req, options) {
  const hook = (options as Tagged | undefined)?.[HOOK];
  if (typeof hook === 'function') hook(req);
  // The class's own, as it is now (a host may have patched it).
  (Object.getPrototypeOf(this) as { addRequest: AddRequest }).addRequest.call(this, req, options);
};

/** The agent, calling the hook each request's options carry (see HOOK). */
function watch<A extends http.Agent>(agent: A): A {
  (agent as unknown as { addRequest: AddRequest }).addRequest = watchedAddRequest;
  return agent;
}

export class HttpAgents {
  private readonly http = watch(new http.Agent({ keepAlive: true }));
  private readonly https = watch(new https.Agent({ keepAlive: true }));

  /**
   * node-fetch's `agent` option for one fetch(): `onRequest` sees each ClientRequest the fetch
   * makes (a redirect makes another), and `exactPath` (path and query) replaces what URL
   * parsing made of it, on the first request only (a redirect's URL is the server's).
   */
  agentFor(exactPath: string | undefined, onRequest: RequestHook): (parsed: URL) => http.Agent {
    let first = true;
    return (parsed) => {
      const options = parsed as unknown as Tagged & { path: string };
      if (first && exactPath !== undefined) options.path = exactPath;
      first = false;
      options[HOOK] = onRequest;
      return parsed.protocol === 'https:' ? this.https : this.http;
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
  // `on`, not `once`: each event comes once per request and response, and both are garbage
  // afterwards; `once` would wrap each listener in another function to remove it again.
  req.on('response', (res: http.IncomingMessage) => {
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) return;
    res.on('close', () => {
      if (!res.complete) cutShort(status);
    });
  });
}
