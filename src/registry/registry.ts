/**
 * A lazily loaded registry of plug-ins keyed by id (workloads, serializer adapters). Each entry
 * is a dynamic import of one file, so a worker process loads only the plug-ins its case needs.
 * Help text and `jsonbench list` derive from the keys, never from a hand-kept list.
 */
export interface Registry<T extends { id: string }> {
  /** Built-in ids, in registry order. */
  readonly ids: readonly string[];
  /**
   * Loads one entry by id: a user's (from config) first, else a built-in one.
   * @throws Error naming the unknown id and listing the known ones.
   */
  load(id: string, userEntries?: readonly T[]): Promise<T>;
  /** Every entry, built-ins then the user's. */
  loadAll(userEntries?: readonly T[]): Promise<T[]>;
}

/** Builds a registry of `kind` ("workload", "serializer") from id → loader. */
export function createRegistry<T extends { id: string }>(
  kind: string,
  loaders: Readonly<Record<string, () => Promise<{ default: T }>>>,
): Registry<T> {
  // frozen, as the registry and each built-in entry it loads: a config in the host cannot swap a built-in's
  // functions or the list (hx5's analyser-off did it to the analysers' exported objects)
  const ids = Object.freeze(Object.keys(loaders));
  const load = async (id: string, userEntries: readonly T[] = []): Promise<T> => {
    const own = userEntries.find((e) => e.id === id);
    if (own) return own;
    const loader = loaders[id];
    if (!loader)
      throw new Error(`unknown ${kind} "${id}" (known: ${[...ids, ...userEntries.map((e) => e.id)].join(', ')})`);
    return Object.freeze((await loader()).default);
  };
  return Object.freeze({
    ids,
    load,
    async loadAll(userEntries: readonly T[] = []) {
      const builtins = await Promise.all(ids.map((id) => load(id)));
      return [...builtins, ...userEntries.filter((e) => !ids.includes(e.id))];
    },
  });
}
