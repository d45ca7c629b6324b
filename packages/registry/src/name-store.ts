/**
 * Where assigned MCP tool names persist (docs/design.md §3: assigned names are kept in
 * the state database so a refresh never renames a tool). {@link MemoryNameStore} serves tests.
 * @module
 */

/** Persistent (source, kind) → MCP tool name. */
export interface NameStore {
  /** Every name assigned for a source, by kind. */
  load(source: string): ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;
  save(source: string, kind: string, name: string): void | Promise<void>;
}

/** A {@link NameStore} in memory. */
export class MemoryNameStore implements NameStore {
  readonly #names = new Map<string, Map<string, string>>();

  load(source: string): ReadonlyMap<string, string> {
    return new Map(this.#names.get(source) ?? []);
  }

  save(source: string, kind: string, name: string): void {
    let names = this.#names.get(source);
    if (names === undefined) {
      names = new Map();
      this.#names.set(source, names);
    }
    names.set(kind, name);
  }
}
