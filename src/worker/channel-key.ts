/**
 * The channel's MAC on Node-like runtimes (Node, Bun, Deno through node:crypto): HMAC-SHA256 under
 * a per-launch key, computed in native code. `createHmac` and the Hmac methods are taken when this
 * module loads — in the worker, before any adapter code runs — so replacing them later changes
 * nothing here. See protocol.ts for the scheme.
 */
import { createHmac as importedCreateHmac, randomBytes } from 'node:crypto';
import type { MessageMac } from './protocol.js';

/** Held in a constant: an import binding of a built-in follows `syncBuiltinESMExports()` after a patch. */
const createHmac = importedCreateHmac;
const hmacPrototype = Object.getPrototypeOf(createHmac('sha256', 'probe')) as {
  update(t: string, e: string): unknown;
  digest(e: string): string;
};
const callOf = Function.prototype.call.bind(Function.prototype.call) as <T>(
  fn: (...a: never[]) => T,
  self: unknown,
  ...args: unknown[]
) => T;
const update = hmacPrototype.update;
const bufferFrom = Buffer.from.bind(Buffer) as (s: string, e: 'hex') => Buffer;
const digest = hmacPrototype.digest;

/** A fresh random key for one launch (hex, 256 bits). */
export function newChannelKey(): string {
  return randomBytes(32).toString('hex');
}

/** The MAC function of a key. */
export function channelMac(keyHex: string): MessageMac {
  const key = bufferFrom(keyHex, 'hex');
  return (text) => {
    const h = createHmac('sha256', key);
    callOf(update as never, h, text, 'utf8');
    return callOf(digest as never, h, 'hex');
  };
}
