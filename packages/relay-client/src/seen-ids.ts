/**
 * Deduplication of what arrives: an id is remembered with its event's `created_at`, so the set can
 * forget ids older than the window in which a relay could still send them, and never holds more
 * than `capacity` ids (oldest insertions go first).
 * @module
 */
export class SeenIds {
  readonly #ids = new Map<string, number>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records `id`; returns false when it was already there (a duplicate). */
  add(id: string, createdAt: number): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.set(id, createdAt);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.keys().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
    return true;
  }

  /** Forgets ids whose event was created before `cutoff` (unix seconds). */
  forgetBefore(cutoff: number): void {
    for (const [id, createdAt] of this.#ids) if (createdAt < cutoff) this.#ids.delete(id);
  }

  get size(): number {
    return this.#ids.size;
  }
}
