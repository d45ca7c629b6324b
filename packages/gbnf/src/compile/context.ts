/**
 * The state one compilation shares between its parts.
 * @module
 */

import type { SchemaDialect } from '@xprotocol/json-schema-vocabulary';
import type { _GrammarBuilder } from './grammar-builder.js';
import type { ResolvedCompileOptions } from './options.js';
import type { _Loc, _RefIndex } from './refs.js';

/** @internal Services the compiler parts call back into. */
export interface _Ctx {
  readonly g: _GrammarBuilder;
  readonly options: ResolvedCompileOptions;
  readonly index: _RefIndex;
  readonly draft: SchemaDialect;
  /** The `ws` rule name. */
  readonly ws: string;
  /** Records that the grammar accepts less than the schema at `ptr` (sound narrowing). */
  narrow(ptr: string, message: string): void;
  /** Records that the grammar accepts more than the schema at `ptr` (only with allowWidening). */
  widen(ptr: string, message: string): void;
  /** Records a note that does not change exactness. */
  note(ptr: string, message: string): void;
  /** Compiles the conjunction of `locs` into a GBNF expression, or `null` for the empty set. */
  conj(locs: readonly _Loc[], label: string): string | null;
  /** A new synthetic location (a schema the compiler made up) anchored at `ptr`. */
  synth(schema: unknown, ptr: string, base: string): _Loc;
}
