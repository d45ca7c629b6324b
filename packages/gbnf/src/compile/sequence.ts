/**
 * Comma-separated sequences with optional members in a fixed order, followed by any number of
 * "extra" members, with the total count bounded — the shape of an object whose declared
 * properties come in declaration order (each required or optional), then additional properties.
 * @module
 */
import { GbnfCompileError } from './compile-error.js';
import type { _Ctx } from './context.js';
import { _repeat } from './repeat.js';

/** @internal A member of a sequence: its grammar (ending with whitespace) and whether it must appear. */
export interface _Member {
  readonly expr: string;
  readonly required: boolean;
}

/**
 * @internal The inside of `{…}`/`[…]` (after the opening token and whitespace): `members` in order,
 * then `extra` repeated, total count in [`min`, `max`]; `null` if impossible.
 */
export function _sequence(
  ctx: _Ctx,
  members: readonly _Member[],
  extra: string | null,
  min: number,
  max: number | undefined,
  label: string,
  ptr: string,
): string | null {
  const ws = ctx.ws;
  const n = members.length;
  const nReq = members.filter((m) => m.required).length;
  if (max !== undefined && max < nReq) return null;
  const needMax = max !== undefined && (extra !== null || max < n);
  const needMin = min > nReq;
  if (!needMin && extra === null && n === 0) return '""';
  const cap = Math.max(1, needMax ? max! : needMin ? min : 1);
  if ((n + 1) * (cap + 1) > 20_000) {
    throw new GbnfCompileError(
      'TOO_LARGE',
      ptr,
      `counting ${n} members against a bound of ${cap} needs too many rules`,
    );
  }
  const memo = new Map<string, string | null>();
  const sep = (c: number) => (c === 0 ? '' : `"," ${ws} `);
  const next = (c: number) => (needMax ? c + 1 : Math.min(c + 1, cap));
  const tail = (c: number): string | null => {
    if (extra === null) return !needMin || c >= min ? '""' : null;
    const lowK = needMin ? Math.max(0, min - c) : 0;
    let highK = needMax ? max! - c : undefined;
    if (highK !== undefined && highK > ctx.options.maxRepetition) {
      ctx.narrow(ptr, `maxProperties narrowed to ${ctx.options.maxRepetition} additional members`);
      highK = ctx.options.maxRepetition;
    }
    if (highK !== undefined && highK < lowK) return null;
    const more = `( "," ${ws} ${extra} )`;
    const rep = (a: number, b: number | undefined) =>
      _repeat(more, a, b, (body) => ctx.g.rule(`${label}-more`, body));
    if (c === 0) {
      if (highK === 0) return '""';
      const inner =
        lowK <= 1 && highK === undefined
          ? `${extra} ${more}*`
          : `${extra} ${rep(Math.max(lowK - 1, 0), highK === undefined ? undefined : highK - 1)}`;
      return lowK === 0 ? `( ${inner} )?` : inner;
    }
    if (highK === 0) return '""';
    return rep(lowK, highK);
  };
  const F = (i: number, c: number): string | null => {
    const key = `${i}:${c}`;
    if (memo.has(key)) return memo.get(key)!;
    let body: string | null;
    if (i === n) body = tail(c);
    else {
      const m = members[i]!;
      const alts: string[] = [];
      if (!(needMax && c + 1 > max!)) {
        const rest = F(i + 1, next(c));
        if (rest !== null) alts.push(`${sep(c)}${m.expr}${rest === '""' ? '' : ` ${rest}`}`);
      }
      if (!m.required) {
        const skip = F(i + 1, c);
        if (skip !== null) alts.push(skip);
      }
      body = alts.length === 0 ? null : alts.join(' | ');
    }
    const out =
      body === null
        ? null
        : body === '""' || /^[a-z0-9-]+$/.test(body)
          ? body
          : ctx.g.rule(`${label}-${i}-${c}`, body);
    memo.set(key, out);
    return out;
  };
  return F(0, 0);
}
