// Reading a whole list: Link rel="next" when the service sends it, offsets otherwise, pages in
// parallel when the total is known; wrappers recognised, repeats dropped by id, loops stopped.

import { idsSeen, keepFirstOfEachId, ListWrapper, pageUrls, parseLinkHeader, publicQuery, resolveLink, unwrapList, withPage } from './listPages';
import { parseTotalCount } from './replyCheck';

export type { ListWrapper } from './listPages';
export { parseLinkHeader, unwrapList } from './listPages';

export interface ListResult {
  records: unknown[];
  wrapper: ListWrapper;
  /** X-Total-Count of the first page, when the service sent it. */
  total?: number;
  /** Pages received. */
  pages: number;
  /** Records dropped because a record with the same id came earlier. */
  duplicatesDropped: number;
  /** False when reading stopped before the end of the list; stopReason says why. */
  complete: boolean;
  stopReason?: string;
}

export interface PageReply {
  body: unknown;
  headers: { get(name: string): string | null };
  request: string;
}

/** Fetches one page (authorized, retried); `url` never carries a credential. */
export type FetchPage = (url: string, signal: AbortSignal | undefined) => Promise<PageReply>;

export interface PagingPlan {
  /** The list URL with its filters, without limit and offset. */
  url: string;
  limit: number;
  offset: number;
  /** Send `offset` on the first page too (the caller gave one). */
  offsetGiven: boolean;
  all: boolean;
  concurrency: number;
  maxPages: number;
  onPage?: (records: unknown[], page: number) => void;
  /**
   * False: records go to onPage only and the result's `records` is empty, so a list of any
   * length is read in the memory of a page or two (an export streams that way). Default true.
   */
  keepRecords?: boolean;
  /**
   * Pages one at a time, handed to onPage in list order (by offset where the total is known,
   * as the parallel mode would address them). Default false.
   */
  inOrder?: boolean;
  /**
   * With `inOrder`, asked before each next page: a promise while the one who takes onPage's
   * records holds more than it takes at once (a slow reader of an export on a pipe); the next
   * page is fetched once it settles, so a list never piles up ahead of its reader.
   */
  ready?: () => Promise<void> | undefined;
  signal?: AbortSignal;
  /** Query parameters that carry a credential: ignored when comparing pages, never shown. */
  secretParams: readonly string[];
}

/** Pages in a row that bring nothing new before reading stops: the server ignores the offset. */
const MAX_PAGES_WITHOUT_PROGRESS = 3;

/** Reads one list as the plan says; see the decisions at each mode. */
export async function readList(fetchPage: FetchPage, plan: PagingPlan): Promise<ListResult> {
  const reader = new ListReader(fetchPage, plan);
  return reader.read();
}

class ListReader {
  /** Records per planned page, in list order (a gap refill joins its page). */
  private readonly slots: unknown[][] = [];
  private readonly delivered = idsSeen();
  private wrapper: ListWrapper = 'array';
  private total: number | undefined;
  private pages = 0;
  private complete = true;
  private stopReason: string | undefined;
  private pageUrlOf: ((limit: number, offset: number) => string) | undefined;
  /**
   * Pages read side by side whose records are still to be de-duplicated and given to onPage.
   * That work waits for the next turn of the event loop, by which time the worker that read
   * the page has its next request on the wire: it overlaps the wait instead of delaying it.
   */
  private readonly backlog: Array<{ records: unknown[]; page: number }> = [];
  private drainer: ReturnType<typeof setImmediate> | undefined;
  private deliveryError: { err: unknown } | undefined;
  private group: AbortController | undefined;
  private readonly keeps: boolean;
  /** Records handed to onPage so far (new to the list). */
  private deliveredCount = 0;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly plan: PagingPlan,
  ) {
    this.keeps = plan.keepRecords !== false;
  }

  async read(): Promise<ListResult> {
    const { plan } = this;
    const firstUrl = withPage(plan.url, plan.limit, plan.offsetGiven ? plan.offset : undefined);
    const first = await this.fetchPage(firstUrl, plan.signal);
    const page = unwrapList(first.body, first.request);
    this.wrapper = page.wrapper;
    this.total = parseTotalCount(first.headers.get('x-total-count')) ?? page.total;
    // Counted by records new to the list: a page that repeats records of its neighbour (offset
    // paging over changing data) must not push the next offset past records never seen.
    const got = this.receive(0, page.records);
    const linkHeader = first.headers.get('link');
    const next = parseLinkHeader(linkHeader).get('next');
    const remaining = this.total === undefined ? undefined : this.total - plan.offset - got;

    if (!plan.all) {
      const more = next !== undefined || (remaining !== undefined ? remaining > 0 : page.records.length > 0);
      if (more) this.stop('only the first page was asked for (all: false)');
    } else if (
      remaining !== undefined && remaining > 0 && got > 0 && (plan.concurrency > 1 || plan.inOrder === true) &&
      (next === undefined || resolveLink(next, firstUrl)?.searchParams.has('offset') === true)
    ) {
      // The total is known and pages are addressed by offset: fetch the rest side by side (one
      // at a time when the caller wants pages in order). A first page shorter than asked while
      // more remain is the server's cap on `limit`.
      if (plan.inOrder) await this.readByOffset(got);
      else await this.readByOffsetInParallel(Math.min(got, plan.limit), plan.offset + got, this.total!);
    } else if (linkHeader) {
      await this.followLinks(first, firstUrl);
    } else {
      await this.readByOffset(got);
    }
    // Every record went through `delivered` on arrival: when it dropped none, the list in page
    // order has no repeats either, and need not be checked again.
    const records = idsSeen();
    const all = !this.keeps ? [] : this.delivered.dropped === 0 ? this.inOrder() : keepFirstOfEachId(records, this.inOrder());
    if (!this.keeps) records.dropped = this.delivered.dropped;
    const distinct = this.keeps ? all.length : this.deliveredCount;
    // Whatever the mode, a total that was not reached means records are missing (an ignored
    // offset, a chain of links that ended early, records deleted while paging).
    const expected = this.total === undefined ? undefined : this.total - plan.offset;
    if (plan.all && expected !== undefined && distinct < expected) {
      this.stop(`the service counted ${expected} records${plan.offset ? ` from offset ${plan.offset}` : ''}, but ${distinct} distinct records arrived`);
    }
    return {
      records: all,
      wrapper: this.wrapper,
      ...(this.total !== undefined ? { total: this.total } : {}),
      pages: this.pages,
      duplicatesDropped: records.dropped,
      complete: this.complete,
      ...(this.stopReason ? { stopReason: this.stopReason } : {}),
    };
  }

  /** Every record received, in list order: `slots.flat()`, without its generic (slow) path. */
  private inOrder(): unknown[] {
    const all: unknown[] = [];
    for (const slot of this.slots) {
      if (slot === undefined) continue;
      for (let i = 0; i < slot.length; i++) all.push(slot[i]);
    }
    return all;
  }

  /**
   * Stores a page's records and hands the new ones to onPage; returns how many were new. With
   * `later`, the handing on waits for the next turn of the event loop (see `backlog`) and the
   * page's length is returned instead.
   */
  private receive(slot: number, records: unknown[], later = false): number {
    const page = ++this.pages;
    if (this.keeps) (this.slots[slot] ??= []).push(...records);
    if (!later) return this.deliver(records, page);
    this.backlog.push({ records, page });
    this.drainer ??= setImmediate(() => {
      this.drainer = undefined;
      try {
        this.drain();
      } catch (err) {
        // onPage threw: the workers stop at their next page and the list fails with it.
        this.deliveryError ??= { err };
        this.group?.abort();
      }
    });
    return records.length;
  }

  private deliver(records: unknown[], page: number): number {
    const fresh = keepFirstOfEachId(this.delivered, records);
    this.deliveredCount += fresh.length;
    this.plan.onPage?.(fresh, page);
    return fresh.length;
  }

  /** Hands on every page in the backlog, in the order they arrived. */
  private drain(): void {
    for (;;) {
      const next = this.backlog.shift();
      if (next === undefined) return;
      this.deliver(next.records, next.page);
    }
  }

  /** drain() once the list has failed: an onPage that throws does not replace that failure. */
  private drainAfterFailure(): void {
    try {
      this.drain();
    } catch {
      // The list already fails with the first error.
    }
  }

  /** Waits, when the plan asks to, until the reader of the pages so far has taken them. */
  private async readerReady(): Promise<void> {
    const wait = this.plan.ready?.();
    if (wait) await wait;
  }

  /** withPage(plan.url, limit, offset), the URL parsed once per list. */
  private pageUrl(limit: number, offset: number): string {
    this.pageUrlOf ??= pageUrls(this.plan.url);
    return this.pageUrlOf(limit, offset);
  }

  private stop(reason: string): void {
    this.complete = false;
    this.stopReason ??= reason;
  }

  private atPageLimit(): boolean {
    if (this.pages < this.plan.maxPages) return false;
    this.stop(`stopped at the limit of ${this.plan.maxPages} pages`);
    return true;
  }

  private async fetchRecords(url: string, signal: AbortSignal | undefined): Promise<unknown[]> {
    const reply = await this.fetchPage(url, signal);
    return unwrapList(reply.body, reply.request).records;
  }

  /**
   * Follows rel="next" one page at a time. A next link to another origin is not followed (the
   * token would go with it); a next link to a page already fetched is a loop. Both stop reading
   * and mark the result incomplete rather than throw, so the records read so far are kept.
   */
  private async followLinks(first: PageReply, firstUrl: string): Promise<void> {
    const secret = this.plan.secretParams;
    const keyOf = (u: URL) => `${u.origin}${u.pathname}${publicQuery(u, secret)}`;
    const origin = new URL(firstUrl).origin;
    const seen = new Set([keyOf(new URL(firstUrl))]);
    let reply = first;
    let url = firstUrl;
    let idle = 0;
    for (;;) {
      const next = parseLinkHeader(reply.headers.get('link')).get('next');
      if (next === undefined) break;
      const target = resolveLink(next, url);
      if (!target) return this.stop('the next link could not be read as a URL; stopped');
      if (target.origin !== origin) return this.stop(`refused to follow a next link to another origin (${target.origin})`);
      if (seen.has(keyOf(target))) {
        const page = `${target.pathname}${publicQuery(target, secret)}`;
        return this.stopUnlessAllRead(`the next link leads back to a page already fetched (${page}): a loop, stopped after ${this.pages} pages`);
      }
      if (this.atPageLimit()) return;
      seen.add(keyOf(target));
      url = target.href;
      await this.readerReady();
      reply = await this.fetchPage(url, this.plan.signal);
      const page = unwrapList(reply.body, reply.request);
      idle = this.receive(0, page.records) === 0 && page.records.length > 0 ? idle + 1 : 0;
      if (idle >= MAX_PAGES_WITHOUT_PROGRESS) return this.stop(`${idle} pages in a row repeated records already read; stopped`);
    }
  }

  /** Marks the result incomplete, unless a total says every record is here all the same. */
  private stopUnlessAllRead(reason: string): void {
    const distinct = this.keeps ? keepFirstOfEachId(idsSeen(), this.inOrder()).length : this.deliveredCount;
    if (this.total === undefined || distinct < this.total - this.plan.offset) this.stop(reason);
  }

  /**
   * Offset paging, one page at a time; the offset moves on by the records new to the list. A
   * short page ends the list, except that a short FIRST page may be the server capping `limit`
   * below what was asked: without a total to tell, one more page is asked for, and if it has
   * records the first page's length is the page size from then on. With a total, reading goes on
   * until the offset reaches it (or a page comes back empty).
   */
  private async readByOffset(firstCount: number): Promise<void> {
    const { plan } = this;
    if (firstCount === 0) return;
    let offset = plan.offset + firstCount;
    let pageSize = plan.limit;
    let probing = false;
    if (this.total !== undefined) {
      if (offset >= this.total) return;
    } else if (firstCount < plan.limit) {
      probing = true;
    }
    let idle = 0;
    for (;;) {
      if (this.atPageLimit()) return;
      await this.readerReady();
      const records = await this.fetchRecords(this.pageUrl(plan.limit, offset), plan.signal);
      const fresh = this.receive(0, records);
      if (records.length === 0) return;
      if (probing) {
        probing = false;
        pageSize = firstCount;
      }
      idle = fresh === 0 ? idle + 1 : 0;
      if (idle >= MAX_PAGES_WITHOUT_PROGRESS) return this.stop(`${idle} pages in a row repeated records already read; is the offset ignored?`);
      offset += fresh > 0 ? fresh : records.length;
      if (this.total !== undefined ? offset >= this.total : fresh < pageSize) return;
    }
  }

  /**
   * With the total known, the remaining pages are fetched by offset, `concurrency` at a time, and
   * kept in list order. A page that comes back shorter than planned leaves a gap, refilled from
   * where it ended, so a cap smaller than the first page's length misses nothing either.
   */
  private async readByOffsetInParallel(pageSize: number, from: number, total: number): Promise<void> {
    const offsets: number[] = [];
    for (let o = from; o < total; o += pageSize) offsets.push(o);
    const room = Math.max(0, this.plan.maxPages - this.pages);
    if (offsets.length > room) {
      offsets.length = room;
      this.stop(`stopped at the limit of ${this.plan.maxPages} pages`);
    }
    const group = new AbortController();
    this.group = group;
    const onAbort = () => group.abort();
    this.plan.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.plan.signal?.aborted) group.abort();
    let nextJob = 0;
    // Once the group is aborted every fetch fails at once as cancelled, so the workers wind down.
    const worker = async () => {
      while (nextJob < offsets.length) {
        const index = nextJob++;
        await this.readSlot(index + 1, offsets[index], Math.min(pageSize, total - offsets[index]), group.signal);
      }
    };
    let failed = false;
    try {
      await Promise.all(Array.from({ length: Math.min(this.plan.concurrency, offsets.length) }, async () => {
        try {
          await worker();
        } catch (err) {
          group.abort(); // the first failure ends the others; it is the one reported
          throw err;
        }
      }));
    } catch (err) {
      failed = true;
      // A failing onPage aborted the group: its error, not the cancellation it caused.
      if (this.deliveryError) throw this.deliveryError.err;
      throw err;
    } finally {
      this.plan.signal?.removeEventListener('abort', onAbort);
      this.group = undefined;
      if (this.drainer !== undefined) clearImmediate(this.drainer);
      this.drainer = undefined;
      // The pages that arrived are handed on before the list settles, whatever it settles as.
      if (failed || this.deliveryError) this.drainAfterFailure();
      else this.drain();
    }
    if (this.deliveryError) throw this.deliveryError.err;
  }

  private async readSlot(slot: number, offset: number, expected: number, signal: AbortSignal): Promise<void> {
    let have = 0;
    while (have < expected) {
      if (have > 0 && this.atPageLimit()) return;
      const records = await this.fetchRecords(this.pageUrl(have === 0 ? expected : expected - have, offset + have), signal);
      this.receive(slot, records, true);
      if (records.length === 0) {
        if (offset + have < (this.total ?? 0)) this.stop(`the page at offset ${offset + have} came back empty before the ${this.total} records the service counted`);
        return;
      }
      have += records.length;
    }
  }
}
