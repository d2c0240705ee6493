// Payload files for the commands that read them (validate, coverage): a clear sentence for a
// file that is missing or a folder, their bytes as they are read, and a large one's progress.

import { open, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { whyNotReadAfterName } from './fileTargets';
import { type Output, printable, thousands } from './output';

/** A payload file's size, or why it cannot be read, as the end of "<file> …". */
export async function statPayloadFile(file: string): Promise<{ size: number }> {
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    throw new Error(whyNotReadAfterName(err));
  }
  if (info.isDirectory()) throw new Error('is a folder with no .json, .ndjson or .jsonl files in it');
  return info;
}

/** A payload's bytes as they are read: a file (after statPayloadFile's checks) or standard input. */
/**
 * Files (and standard input) up to this size are read whole and validated as the editor validates
 * them, findings at the exact ranges of the Problems panel; larger ones are streamed.
 */
export const SMALL_FILE_BYTES = 16 * 1024 * 1024;

/** A file's chunks as they are read; over SMALL_FILE_BYTES with `progress` shown (see ReadProgress). */
export async function payloadChunks(file: string, stdin: NodeJS.ReadableStream, progress?: ReadProgress): Promise<AsyncIterable<Buffer>> {
  if (file !== '-') {
    const { size } = await statPayloadFile(file);
    const chunks = readAhead(file);
    return progress && size > SMALL_FILE_BYTES ? progress.over(chunks, file, size) : chunks;
  }
  return (async function* () {
    for await (const chunk of stdin as AsyncIterable<Buffer | string>) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  })();
}

/**
 * Bytes read at a time. Each chunk is a Buffer outside V8's heap that lives until a collection
 * notices it; at 1 MB, dead chunks piled up to a peak RSS of 276-304 MB on 1 GB of NDJSON, at
 * 256 KB it stays at 256-259 MB, at the same speed.
 */
export const READ_CHUNK = 256 * 1024;

/**
 * Reads kept under way ahead of the reader. The reader takes chunks in bursts: it splits a
 * batch's worth (validate's BATCH_BYTES, 1 MB) quickly, then validates it while no chunk is
 * taken. With one read ahead, every chunk of the next burst waited for its read: 50-70 ms of
 * idle main thread per 100 MB of `validate --jobs 1`. Eight cover a batch and a bit.
 */
export const READS_AHEAD = 8;

/**
 * A file's bytes, READ_CHUNK at a time, the next `ahead` reads under way while the reader works
 * on a chunk. (A read stream starts its next read only once the reader's synchronous work on the
 * chunk is over: a profile of `validate --jobs 1` on 100 MB had 190 ms of 1.2 s waiting for reads.)
 */
export async function* readAhead(file: string, chunk = READ_CHUNK, ahead = READS_AHEAD): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  let position = 0;
  const next = () => {
    const read = handle.read(Buffer.allocUnsafeSlow(chunk), 0, chunk, position);
    position += chunk;
    return read;
  };
  const pending: Array<ReturnType<typeof next>> = [];
  for (let i = 0; i < ahead; i++) pending.push(next());
  try {
    for (;;) {
      const { bytesRead, buffer } = await pending.shift()!;
      if (bytesRead === 0) return;
      // Reads past the end read nothing: one more is started only while the file may go on.
      if (bytesRead === chunk) pending.push(next());
      yield bytesRead === chunk ? buffer : buffer.subarray(0, bytesRead);
      if (bytesRead < chunk && pending.length === 0) return;
    }
  } finally {
    // A reader that stopped early leaves reads under way: they end (or fail) before the close.
    await Promise.all(pending.map((p) => p.catch(() => undefined)));
    await handle.close();
  }
}

/** The files a folder named on the command line stands for, by their names' ends. */
const PAYLOAD_EXTENSIONS = ['.json', '.ndjson', '.jsonl'];

/**
 * The files named, each folder replaced by the payload files under it (.json, .ndjson, .jsonl, at
 * any depth, in name order; hidden entries, node_modules and links to folders skipped) as paths
 * that start with the folder's name. A folder with none stays as it is: reading it says so.
 * `except`: a file a folder does not stand for (the report being written there).
 */
export async function expandFolders(names: readonly string[], except?: string): Promise<string[]> {
  const out: string[] = [];
  const skipped = except === undefined ? undefined : resolve(except);
  for (const name of names) {
    const info = name === '-' ? undefined : await stat(name).catch(() => undefined);
    const found = info?.isDirectory() ? (await payloadFilesUnder(name)).filter((f) => resolve(f) !== skipped) : [];
    if (found.length > 0) out.push(...found);
    else out.push(name);
  }
  return out;
}

async function payloadFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await payloadFilesUnder(path)));
    else if ((entry.isFile() || entry.isSymbolicLink()) && PAYLOAD_EXTENSIONS.some((end) => entry.name.toLowerCase().endsWith(end))) out.push(path);
  }
  return out;
}

/** Shows a progress line at most this often. */
const PROGRESS_MS = 250;

/**
 * The progress line of a large file as it is read, on a terminal's stderr (`validating
 * big.ndjson: 312 of 1,024 MB (30 %)`), at most four times a second; cleared when the file is
 * read, and by `clear()` before anything goes to stdout, so output on the same terminal never
 * runs into it. Nothing on a pipe (Output.progress).
 */
export class ReadProgress {
  private shown = false;

  /** `verb`: what is done to the file (`validating`, `counting`). */
  constructor(
    private readonly o: Output,
    private readonly verb: string,
  ) {}

  async *over(chunks: AsyncIterable<Buffer>, file: string, size: number): AsyncIterable<Buffer> {
    const name = printable(basename(file), 60);
    const total = megabytes(size);
    let read = 0;
    let last = -Infinity;
    try {
      for await (const chunk of chunks) {
        read += chunk.length;
        const now = performance.now();
        if (now - last >= PROGRESS_MS) {
          last = now;
          this.o.progress(`${this.verb} ${name}: ${megabytes(read)} of ${total} MB (${Math.floor((100 * read) / size)} %)`);
          this.shown = true;
        }
        yield chunk;
      }
    } finally {
      this.clear();
    }
  }

  clear(): void {
    if (!this.shown) return;
    this.o.progress('');
    this.shown = false;
  }
}

const megabytes = (bytes: number): string => thousands(Math.round(bytes / (1024 * 1024)));
