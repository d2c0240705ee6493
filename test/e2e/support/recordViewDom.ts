/// <reference lib="dom" />
// What the end-to-end tests read from the record view's webview document: the findings list,
// the marks on a JSON node, the zones table, and every trace a smuggled script or element could
// leave. Each function here runs inside the webview frame (frame.evaluate), so it must stand
// alone: no imports, no helpers from outside its own body.

export interface DomFinding {
  readonly kind: string;
  readonly path: string;
  readonly message: string;
}

export interface RecordViewDom {
  readonly title: string;
  readonly bodyClass: string;
  readonly heading: string;
  readonly counts: Record<string, number>;
  readonly findings: DomFinding[];
  /** What the zeros were compared with, under the counts; null when the view says nothing of it. */
  readonly zeroBasis: string | null;
  /** Rows of the zones table (name, range, time, calories); null without a zones section. */
  readonly zones: string[][] | null;
  readonly text: string;
}

/** The rendered view: title, counts, findings list, zones table, all text. */
export function readRecordView(): RecordViewDom {
  const counts: Record<string, number> = {};
  for (const item of Array.from(document.querySelectorAll('.findings .counts .count'))) {
    const kind = /count-(error|warning|zero|deprecated|unknown)/.exec(item.className)?.[1];
    if (kind) counts[kind] = Number(item.querySelector('.count-n')?.textContent);
  }
  const findings = Array.from(document.querySelectorAll('.finding-list > li > button.finding')).map((b) => ({
    kind: /finding-(error|warning|zero|deprecated|unknown)/.exec(b.className)?.[1] ?? `?${b.className}`,
    path: b.querySelector(':scope > .path')?.textContent ?? '',
    message: b.querySelector(':scope > .message')?.textContent ?? '',
  }));
  const table = document.querySelector('.zones table');
  const zones = document.querySelector('.zones')
    ? Array.from(table?.querySelectorAll('tbody tr') ?? []).map((tr) => Array.from(tr.children).map((c) => c.textContent ?? ''))
    : null;
  return {
    title: document.title,
    bodyClass: document.body.className,
    heading: document.querySelector('.heading')?.textContent ?? '',
    counts,
    findings,
    zones,
    zeroBasis: document.querySelector('.findings .zero-basis')?.textContent ?? null,
    text: document.body.textContent ?? '',
  };
}

export interface DomMark {
  readonly className: string;
  readonly icon: string;
  readonly word: string;
  readonly message: string;
}

export interface DomNode {
  readonly rowClass: string;
  readonly key: string | null;
  readonly value: string | null;
  readonly marks: DomMark[];
  readonly keyDecoration: string | null;
  readonly valueDecoration: string | null;
  readonly valueOutline: string | null;
  /** The row takes up space on the page (not inside a closed container). */
  readonly shown: boolean;
}

/** The JSON node with this DOM id (`j` + pointer, see anchorOf): its row, marks and styles. */
export function readJsonNode(anchorId: string): DomNode | null {
  const node = document.getElementById(anchorId);
  const row = node?.querySelector<HTMLElement>(':scope > .row');
  if (!row) return null;
  const key = row.querySelector<HTMLElement>(':scope > .key');
  const value = row.querySelector<HTMLElement>(':scope > .value');
  return {
    rowClass: row.className,
    key: key?.textContent ?? null,
    value: value?.textContent ?? null,
    marks: Array.from(row.querySelectorAll(':scope > .mark')).map((m) => ({
      className: m.className,
      icon: m.querySelector('.badge-icon')?.textContent ?? '',
      word: m.querySelector('.badge-word')?.textContent ?? '',
      message: m.querySelector('.mark-message')?.textContent ?? '',
    })),
    keyDecoration: key ? getComputedStyle(key).textDecorationLine : null,
    valueDecoration: value ? getComputedStyle(value).textDecorationLine : null,
    valueOutline: value ? getComputedStyle(value).outlineStyle : null,
    shown: row.getBoundingClientRect().height > 0,
  };
}

export interface ScriptTraces {
  /** `typeof window.__pwned`: 'undefined' unless a payload's script ran. */
  readonly pwned: string;
  /** What the hostile fixture's payloads would set on <html> (data-hde-pwned). */
  readonly marker: string | null;
  /** `({}).polluted`: set if a `__proto__` key reached Object.prototype. */
  readonly polluted: string;
  /** Every script element: its src, or the start of its text. */
  readonly scripts: string[];
  /** Elements in <body> of a tag the record view never creates, as `tag: outerHTML start`. */
  readonly foreignElements: string[];
  /** Elements with an on* attribute, anywhere in the document. */
  readonly handlerAttributes: string[];
  /** Attributes holding a javascript:, vbscript: or data: URL, anywhere in the document. */
  readonly scriptUrls: string[];
}

/** Every trace a record's strings would leave had one of them become markup or script. */
export function readScriptTraces(): ScriptTraces {
  // The tags media/webview.ts and media/jsonView.ts create, and nothing else.
  const made = new Set(['MAIN', 'DIV', 'HEADER', 'P', 'SPAN', 'H1', 'H2', 'SECTION', 'UL', 'OL', 'LI', 'BUTTON', 'CODE', 'DL', 'DT', 'DD', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SCRIPT']);
  const all = Array.from(document.querySelectorAll('*'));
  const brief = (e: Element) => `${e.tagName.toLowerCase()}: ${e.outerHTML.slice(0, 120)}`;
  const w = window as unknown as Record<string, unknown>;
  return {
    pwned: typeof w.__pwned,
    marker: document.documentElement.getAttribute('data-hde-pwned'),
    polluted: typeof ({} as Record<string, unknown>).polluted,
    scripts: Array.from(document.scripts).map((s) => s.getAttribute('src') ?? `inline: ${(s.textContent ?? '').slice(0, 60)}`),
    foreignElements: Array.from(document.body.querySelectorAll('*')).filter((e) => !made.has(e.tagName)).map(brief),
    handlerAttributes: all.filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).map(brief),
    scriptUrls: all.filter((e) => Array.from(e.attributes).some((a) => /^\s*(javascript|vbscript|data):/i.test(a.value))).map(brief),
  };
}
