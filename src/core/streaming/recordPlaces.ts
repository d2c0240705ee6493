// Where findings start in the text of one record that JSON.parse has accepted: the offset of the
// field's key (or of the value, for array items and the record itself), and for a missing field
// its nearest ancestor's. One pass of character codes that skips every value no finding is about:
// jsonc-parser's visitor, which the editor uses, costs several times JSON.parse per record.

interface Node {
  children?: Map<string, Node>;
  /** Offset where the value (its key, when it has one) starts. */
  start?: number;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** The offset just after the string whose opening quote is at `i`. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/** Unescapes a key only when it has escapes (rare); pointer tokens use ~0 and ~1. */
function tokenOf(raw: string): string {
  const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  return name.includes('~') || name.includes('/') ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name;
}

/**
 * For each pointer (relative to the record: '', '/steps', '/zones/2/min'), the offset in `text`
 * where its finding is shown. `text` must be valid JSON.
 */
export function recordPlaces(text: string, pointers: readonly string[]): Map<string, number> {
  const root: Node = {};
  for (const pointer of pointers) {
    let node = root;
    if (pointer === '') continue;
    const tokens = pointer.split('/');
    for (let t = 1; t < tokens.length; t++) {
      node.children ??= new Map();
      let child = node.children.get(tokens[t]);
      if (child === undefined) node.children.set(tokens[t], (child = {}));
      node = child;
    }
  }
  let i = 0;
  /** Reads the value at `i` (whose key, if any, started at `keyAt`); returns the offset after it. */
  const value = (node: Node | undefined, keyAt: number): number => {
    while (isSpace(text.charCodeAt(i))) i++;
    if (node !== undefined) node.start = keyAt >= 0 ? keyAt : i;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return (i = skipString(text, i));
    if (c !== 123 && c !== 91) {
      // A number or a literal: up to the next delimiter.
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 44 || d === 125 || d === 93 || isSpace(d)) break;
        i++;
      }
      return i;
    }
    const children = node?.children;
    if (children === undefined) {
      // Nothing wanted inside: skip the container by counting brackets outside strings.
      let depth = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) i = skipString(text, i) - 1;
        else if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) {
          if (--depth === 0) return ++i;
        }
      }
      return i;
    }
    const isArray = c === 91;
    // The record itself: once every wanted field is placed, the rest of it is not read (with a
    // key written twice, JSON.parse keeps the last; the first one shows the finding then).
    let unplaced = node === root ? children.size : -1;
    i++;
    for (let index = 0; unplaced !== 0; index++) {
      while (isSpace(text.charCodeAt(i)) || text.charCodeAt(i) === 44) i++;
      const d = text.charCodeAt(i);
      if (d === 125 || d === 93 || i >= text.length) return ++i;
      let child: Node | undefined;
      if (isArray) {
        child = children.get(String(index));
        value(child, -1);
      } else {
        const keyAt = i;
        const end = skipString(text, i);
        child = children.get(tokenOf(text.slice(keyAt + 1, end - 1)));
        i = text.indexOf(':', end) + 1;
        value(child, child === undefined ? -1 : keyAt);
      }
      if (child !== undefined) unplaced--;
    }
    return i;
  };
  value(root, -1);
  const places = new Map<string, number>();
  for (const pointer of pointers) {
    // The pointer's own start, or its nearest ancestor's for a field that is not there.
    let node: Node | undefined = root;
    let start = root.start ?? 0;
    if (pointer !== '') {
      const tokens = pointer.split('/');
      for (let t = 1; t < tokens.length && node !== undefined; t++) {
        node = node.children?.get(tokens[t]);
        if (node?.start !== undefined) start = node.start;
        else break;
      }
    }
    places.set(pointer, start);
  }
  return places;
}
