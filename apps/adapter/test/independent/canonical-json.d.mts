// The types of canonical-json.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Reads a JSON text as §2.2 says every receiver does: no member name twice in one object
 * (compared after unescaping), at most 512 levels of nesting; numbers are kept as JavaScript
 * numbers (their value, not their spelling).
 *
 * @param {string} text
 * @returns {unknown}
 */
export function parseStrictJson(text: string): unknown;
/**
 * RFC 8785 under the protocol's profile (§2.1). `keepOrder(path)` may say that the members of
 * the object at `path` keep their own order (the `properties` of a contract's schemas, §10.8).
 *
 * @param {unknown} value
 * @param {(path: string[]) => boolean} [keepOrder]
 * @returns {string}
 */
export function canonicalJson(value: unknown, keepOrder?: (path: string[]) => boolean): string;
/**
 * Strict JSON reading and RFC 8785 canonical JSON, written from docs/protocol.md §2.1 and §2.2
 * ("The JSON text") alone. It imports nothing from this repository: it is one part of an
 * independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
/** The deepest nesting a JSON text may have (§2.1, §2.2): the outermost value is level 1. */
export const MAX_DEPTH: 512;
/** An error that names the rule of docs/protocol.md it enforces. */
export class RuleError extends Error {
  /**
   * @param {string} rule the section, e.g. "§2.1"
   * @param {string} message what was wrong and what was expected
   */
  constructor(rule: string, message: string);
  rule: string;
}
