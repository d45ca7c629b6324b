/**
 * Names of aggregated prompts, resources and resource templates on the face, by the rule the face
 * applies to tools (docs/design.md §3): a name is kept as the server gave it
 * unless it is over 64 characters or an earlier entry (an earlier upstream in configuration
 * order, or earlier in the same listing) already has it; then it becomes its first 55 characters
 * + `_` + 8 hex of SHA-256(adapter key ‖ source ‖ name). One upstream with short names therefore
 * crosses unchanged. Names are kept for the life of the face, so a later listing never renames
 * what a client already saw.
 * @module
 */

const _MAX = 64;

/** The face's names of one kind of entry (prompts, resources, templates) across upstreams. */
export class _GatewayNames {
  readonly #sha256: (data: Uint8Array) => Uint8Array;
  readonly #key: string;
  /** Face name -> where it comes from. */
  readonly #byName = new Map<string, { source: string; name: string }>();
  /** `source\0name` -> face name. */
  readonly #byOrigin = new Map<string, string>();

  constructor(key: string, sha256: (data: Uint8Array) => Uint8Array) {
    this.#key = key;
    this.#sha256 = sha256;
  }

  /** The face name of `name` from `source` (assigned on first sight). */
  assign(source: string, name: string): string {
    const origin = `${source}\u0000${name}`;
    const known = this.#byOrigin.get(origin);
    if (known !== undefined) return known;
    let faceName = name;
    if (faceName.length > _MAX || this.#byName.has(faceName)) {
      const digest = this.#sha256(new TextEncoder().encode(`${this.#key}${origin}`));
      const hex = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join('');
      faceName = `${name.slice(0, 55)}_${hex}`;
    }
    this.#byName.set(faceName, { source, name });
    this.#byOrigin.set(origin, faceName);
    return faceName;
  }

  /** Where a face name comes from, when it was assigned. */
  resolve(faceName: string): { source: string; name: string } | undefined {
    return this.#byName.get(faceName);
  }
}
