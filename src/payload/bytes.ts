import { lineColumn } from './position.js';
import { PayloadError } from './errors.js';
import { FileReadError, readDataFile } from '../files/read-file.js';

/**
 * The largest payload file jsonbench reads by default: 500 MiB (`run --max-payload` sets another).
 * V8 holds no string longer than 512 MiB, and a payload is held as text (and parsed, and inferred:
 * 300 MiB of NDJSON took 651 s and 4.2 GB at load 22), so this is close to what can be read at all.
 */
export const DEFAULT_MAX_PAYLOAD_BYTES = 500 * 1024 * 1024;

/**
 * A payload file's bytes as text, never rewritten (issue 24): the README promises the user's bytes
 * byte for byte, and Node's `readFileSync(file, 'utf8')` silently turns bytes that are not UTF-8
 * into U+FFFD, so a file that is not UTF-8 would be measured as another text. JSON text exchanged
 * between systems must be UTF-8 (RFC 8259 §8.1), so these are refused, naming the byte offset:
 * - a UTF-16 byte order mark (FF FE or FE FF): the file is UTF-16;
 * - a NUL byte (JSON text cannot hold one raw; inside a string it is written `\u0000`): a UTF-16
 *   file without a byte order mark, or a binary file;
 * - a byte sequence that is not UTF-8 (a Latin-1 `é` is the byte E9 alone).
 * A UTF-8 byte order mark is refused by `parseJsonText` (read.ts) with its own message.
 */

/** The byte offset of the first sequence in `buf` that is not UTF-8, or -1 (a U+FFFD written in the file as EF BF BD is itself). */
export function invalidUtf8Offset(buf: Buffer, text = buf.toString('utf8')): number {
  let from = 0;
  for (;;) {
    const i = text.indexOf('\uFFFD', from);
    if (i < 0) return -1;
    const offset = Buffer.byteLength(text.slice(0, i));
    if (!(buf[offset] === 0xef && buf[offset + 1] === 0xbf && buf[offset + 2] === 0xbd)) return offset;
    from = i + 1;
  }
}

/** `file:line:column` of a byte offset, from the text decoded up to it. */
function where(file: string, buf: Buffer, offset: number): string {
  const before = buf.subarray(0, offset).toString('utf8');
  const { line, column } = lineColumn(before, before.length);
  return `${file}:${line}:${column} (byte offset ${offset})`;
}

/**
 * Reads a payload file as UTF-8 text (see the module comment).
 * Only a regular file of at most `maxBytes` is read (files/read-file.ts): a device or a pipe is refused at once.
 * @throws PayloadError naming the file, the byte offset (and line:column) and what the bytes are;
 * or the file's kind, or its size and the cap
 */
export function readPayloadText(file: string, maxBytes = DEFAULT_MAX_PAYLOAD_BYTES): string {
  let buf: Buffer;
  try {
    buf = readDataFile(file, maxBytes, 'run --max-payload sets the cap');
  } catch (e) {
    if (e instanceof FileReadError) throw new PayloadError(e.message);
    throw e;
  }
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)))
    throw new PayloadError(
      `${file}: starts with a UTF-16 byte order mark (bytes ${buf[0].toString(16).toUpperCase()} ${buf[1].toString(16).toUpperCase()} at byte offset 0); JSON text must be UTF-8 (RFC 8259 §8.1): convert it, e.g. iconv -f UTF-16 -t UTF-8`,
    );
  const nul = buf.indexOf(0);
  if (nul >= 0)
    throw new PayloadError(
      `${where(file, buf, nul)}: a NUL byte, which JSON text cannot hold unescaped (inside a string it is written \\u0000); is the file UTF-16 or binary?`,
    );
  const text = buf.toString('utf8');
  const bad = invalidUtf8Offset(buf, text);
  if (bad >= 0) {
    const bytes = [...buf.subarray(bad, bad + 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
    throw new PayloadError(
      `${where(file, buf, bad)}: bytes that are not UTF-8 (${bytes}…); JSON text must be UTF-8 (RFC 8259 §8.1), and jsonbench measures your bytes as they are, so it will not replace them: re-encode the file (a Latin-1 file: iconv -f LATIN1 -t UTF-8)`,
    );
  }
  return text;
}
