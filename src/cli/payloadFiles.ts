// Payload files for the commands that read them (validate, coverage): a clear sentence for a
// file that is missing or a folder, and their bytes as they are read.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Coverage reads files up to this size: it holds every record at once (validate streams any size). */
export const MAX_PAYLOAD_BYTES = 100 * 1024 * 1024;

/** A payload file's size, or why it cannot be read, as the end of "<file> …". */
export async function statPayloadFile(file: string): Promise<{ size: number }> {
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? 'unknown error'})`);
  }
  if (info.isDirectory()) throw new Error('is a directory, not a file');
  return info;
}

/** A payload's bytes as they are read: a file (after statPayloadFile's checks) or standard input. */
export async function payloadChunks(file: string, stdin: NodeJS.ReadableStream): Promise<AsyncIterable<Buffer>> {
  if (file !== '-') {
    await statPayloadFile(file);
    return createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
  }
  return (async function* () {
    for await (const chunk of stdin as AsyncIterable<Buffer | string>) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  })();
}
