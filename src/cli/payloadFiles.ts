// Payload files read whole, for the commands that need a file's records at once (coverage):
// a clear sentence for a file that is missing, a folder, too large or not JSON.

import { readFile, stat } from 'node:fs/promises';
import { printable } from './output';

/** Files larger than this are refused with a message instead of exhausting memory (validate streams instead). */
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

export async function readPayload(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > MAX_PAYLOAD_BYTES) throw new Error(`is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB; larger input is not validated`);
      chunks.push(buf);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  const info = await statPayloadFile(file);
  if (info.size > MAX_PAYLOAD_BYTES) {
    throw new Error(`is ${(info.size / 1024 / 1024).toFixed(0)} MB; files over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MB are not validated`);
  }
  return readFile(file, 'utf8');
}

/** A payload's JSON, its byte-order mark dropped; what is wrong with it as the end of "<file> …". */
export function parsePayload(text: string): unknown {
  if (!text.trim()) throw new Error('is empty');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^Unexpected token.*?(, ".*")? is not valid JSON$/s, 'unexpected character') : '';
    throw new Error(`is not valid JSON (${printable(detail, 120)})`);
  }
}
