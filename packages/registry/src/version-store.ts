/**
 * Where schema versions persist (docs/design.md §12: versions depend on history, so they live in
 * the state database). The interface is small so the bridge can put it on its SQLite state
 * database; {@link MemoryVersionStore} serves tests and short-lived processes. Methods may be
 * synchronous or return promises.
 * @module
 */

/** The last published version of a kind and the canonical JSON of that contract. */
export interface VersionRecord {
  readonly kind: string;
  readonly version: string;
  /** `serializeContract` of the contract published with `version`. */
  readonly contract: string;
}

/** Persistent kind → last published version. A removed kind keeps its record (a re-added kind continues from it). */
export interface VersionStore {
  get(kind: string): VersionRecord | undefined | Promise<VersionRecord | undefined>;
  put(record: VersionRecord): void | Promise<void>;
}

/** A {@link VersionStore} in memory. */
export class MemoryVersionStore implements VersionStore {
  readonly #records = new Map<string, VersionRecord>();

  get(kind: string): VersionRecord | undefined {
    return this.#records.get(kind);
  }

  put(record: VersionRecord): void {
    this.#records.set(record.kind, { kind: record.kind, version: record.version, contract: record.contract });
  }

  /** Every record, sorted by kind (for inspection and tests). */
  records(): VersionRecord[] {
    return [...this.#records.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }
}
