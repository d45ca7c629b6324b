// The types of well-known.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Reads a parsed document: the members of the table, checked row by row; every other member is
 * ignored (left out of what is kept).
 *
 * @param {unknown} doc
 * @returns {Record<string, unknown>}
 */
export function readWellKnown(doc: unknown): Record<string, unknown>;
/**
 * Fetches and reads the document of `origin` (`http://` only for a loopback host): status 200
 * only (redirects are not followed), the body read up to {@link MAX_BYTES} and refused past it.
 *
 * @param {string} origin e.g. `http://127.0.0.1:8766`
 */
export function fetchWellKnown(origin: string): Promise<Record<string, unknown>>;
/** The largest document, in bytes, and the most relays it may list (§10.10). */
export const MAX_BYTES: 65536;
export const MAX_RELAYS: 32;
/** A document a reader refuses; `field` is the member at fault, or null for the whole value. */
export class WellKnownRefused extends RuleError {
  field: string;
}

import { RuleError } from './canonical-json.mjs';
