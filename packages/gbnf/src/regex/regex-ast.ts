/**
 * A parsed ECMAScript regex (`u` mode), reduced to what matters for its language: character sets,
 * sequences, alternations, counted repetitions and the assertions `^ $ \b \B`. Group kinds and
 * laziness do not change the language and are dropped.
 * @module
 */
import type { _CharSet } from './charset.js';

export type _RegexNode =
  | { readonly type: 'set'; readonly set: _CharSet; readonly offset: number }
  | { readonly type: 'seq'; readonly items: readonly _RegexNode[]; readonly offset: number }
  | { readonly type: 'alt'; readonly alternatives: readonly _RegexNode[]; readonly offset: number }
  | {
      readonly type: 'repeat';
      readonly item: _RegexNode;
      readonly min: number;
      readonly max: number | null;
      readonly offset: number;
    }
  | { readonly type: 'start'; readonly offset: number }
  | { readonly type: 'end'; readonly offset: number }
  | { readonly type: 'boundary'; readonly negated: boolean; readonly offset: number };
