/**
 * Server affinity (`ToolIndexOptions.serverWeight`): each namespace is also one document — the
 * words of all its tools and its server info — scored against the query by BM25, so "the heroku
 * one" or "post it in #eng" can point at a server before a tool.
 * @module
 */
import type { _Candidates } from './_candidates.js';
import type { _Entry } from './_inverted-index.js';
import { _FIELDS } from './tool-document.js';

/** Fields whose terms make up a namespace document (not parameters, instructions, concepts). */
const NAMESPACE_FIELDS: readonly number[] = (
  ['name', 'annotations', 'description', 'namespace', 'server'] as const
).map((f) => _FIELDS.indexOf(f));

/** The namespace documents of one index. @internal */
export class _NamespaceIndex {
  /** Namespace documents: term counts over all their tools (fields of {@link NAMESPACE_FIELDS}). */
  readonly #namespaces = new Map<string, { tools: number; len: number; tf: Map<string, number> }>();
  /** Per term, the namespaces holding it and their counts. */
  readonly #postings = new Map<string, Map<string, number>>();
  #totalLen = 0;

  /** How many tools a namespace holds (undefined for none). */
  toolCount(namespace: string): number | undefined {
    return this.#namespaces.get(namespace)?.tools;
  }

  /** Adds (sign 1) or removes (sign −1) a tool's terms to or from its namespace document. */
  update(namespace: string, termTf: ReadonlyMap<string, readonly number[]>, sign: 1 | -1): void {
    let ns = this.#namespaces.get(namespace);
    if (ns === undefined) {
      ns = { tools: 0, len: 0, tf: new Map() };
      this.#namespaces.set(namespace, ns);
    }
    ns.tools += sign;
    for (const [t, row] of termTf) {
      let c = 0;
      for (const f of NAMESPACE_FIELDS) c += row[f]!;
      if (c === 0) continue;
      c *= sign;
      ns.len += c;
      this.#totalLen += c;
      const next = (ns.tf.get(t) ?? 0) + c;
      let posting = this.#postings.get(t);
      if (posting === undefined) {
        posting = new Map();
        this.#postings.set(t, posting);
      }
      if (next > 0) {
        ns.tf.set(t, next);
        posting.set(namespace, next);
      } else {
        ns.tf.delete(t);
        posting.delete(namespace);
        if (posting.size === 0) this.#postings.delete(t);
      }
    }
    if (ns.tools === 0) this.#namespaces.delete(namespace);
  }

  /**
   * BM25 (k1 1.2, b 0.75) of the query's exact terms against each namespace document, divided by
   * the best; empty with fewer than two namespaces.
   */
  scores(queryTf: ReadonlyMap<string, number>): Map<string, number> {
    const out = new Map<string, number>();
    const n = this.#namespaces.size;
    if (n < 2) return out;
    const avg = this.#totalLen / n || 1;
    for (const term of [...queryTf.keys()].sort()) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      const w = queryTf.get(term)! * idf;
      for (const [name, tf] of posting) {
        const len = this.#namespaces.get(name)!.len;
        const part = (w * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
        out.set(name, (out.get(name) ?? 0) + part);
      }
    }
    let best = 0;
    for (const v of out.values()) best = Math.max(best, v);
    if (best > 0) for (const [name, v] of out) out.set(name, v / best);
    return out;
  }
}

/**
 * Adds each candidate's namespace score times `serverWeight`, on the relative scale of the blend
 * (unblended scores are first divided by the best). @internal
 */
export function _addServerAffinity(
  state: _Candidates,
  slots: readonly (_Entry | undefined)[],
  nsScores: ReadonlyMap<string, number>,
  blended: boolean,
  serverWeight: number,
): void {
  const { candidates, scores } = state;
  if (nsScores.size === 0 || candidates.length === 0) return;
  let best = 0;
  if (!blended) for (const v of scores) best = Math.max(best, v);
  candidates.forEach((slot, i) => {
    if (scores[i] === Number.NEGATIVE_INFINITY) return;
    if (!blended && best > 0) scores[i] = scores[i]! / best;
    const ns = nsScores.get(slots[slot]!.doc.namespace ?? '') ?? 0;
    scores[i] = scores[i]! + serverWeight * ns;
  });
}
