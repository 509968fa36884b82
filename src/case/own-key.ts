/**
 * Sets `obj[key] = value` as an own, enumerable, writable data property, so a key named
 * `__proto__` stays a key (plain assignment would change the prototype instead). Shared by every
 * place that copies JSON object keys: schema translations, payload variants, probe inputs.
 */
export function defineOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
