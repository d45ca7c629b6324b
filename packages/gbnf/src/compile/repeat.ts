/**
 * Exact counted repetition. llama.cpp honours `{m,n}` bounds up to 2000 and reads a larger upper
 * bound as "unbounded", so larger counts are factored into nested repetitions of at most 2000.
 * @module
 */

const LIMIT = 2000;

/**
 * @internal `unit` repeated between `min` and `max` (undefined: no upper bound) times, exactly.
 * `name` turns a compound unit into a rule (needed for counts over 2000).
 */
export function _repeat(
  unit: string,
  min: number,
  max: number | undefined,
  name?: (body: string) => string,
): string {
  const out = repeatRaw(unit, min, max, name);
  // the factored form is its own rule, so an enclosing `( … )?` does not count its expansion
  return name !== undefined && (min > LIMIT || (max !== undefined && max > LIMIT)) ? name(out) : out;
}

function repeatRaw(
  unit: string,
  min: number,
  max: number | undefined,
  name?: (body: string) => string,
): string {
  const big = min > 500 || (max !== undefined && max > 500);
  // llama.cpp budgets the rules one repeated item expands to: a factored count repeats a rule
  const named = big && name !== undefined && !/^[a-z0-9-]+$/.test(unit) ? name(unit) : unit;
  const u = /^[a-z0-9-]+$/.test(named) ? named : `( ${named} )`;
  if (max !== undefined && max < min) throw new RangeError(`repetition {${min},${max}} is empty`);
  if (max === 0) return '""';
  // a block of 2000 repetitions is a rule of its own when possible: llama.cpp's per-item budget
  // then counts one rule per block
  let made: string | undefined;
  const block = () => {
    made ??= name !== undefined ? name(`${u}{${LIMIT}}`) : `( ${u}{${LIMIT}} )`;
    return made;
  };
  const exactly = (v: string, n: number) => exactlyWith(v, n, block);
  const upTo = (v: string, n: number) => upToWith(v, n, block);
  if (max === undefined) {
    if (min === 0) return `${u}*`;
    if (min === 1) return `${u}+`;
    if (min <= LIMIT) return `${u}{${min},}`;
    return `${exactly(u, min)} ${u}*`;
  }
  if (min === max) return exactly(u, min);
  if (max <= LIMIT) return min === 0 && max === 1 ? `${u}?` : `${u}{${min},${max}}`;
  // min..max = exactly(min) then 0..(max-min) more
  const extra = max - min;
  const head = min === 0 ? '' : `${exactly(u, min)} `;
  return `${head}${upTo(u, extra)}`;
}

function exactlyWith(u: string, n: number, blockOf: () => string): string {
  if (n === 0) return '""';
  if (n === 1) return u;
  if (n <= LIMIT) return `${u}{${n}}`;
  const q = Math.floor(n / LIMIT);
  const r = n % LIMIT;
  const block = blockOf();
  return `${q === 1 ? block : `${block}{${q}}`}${r === 0 ? '' : ` ${exactlyWith(u, r, blockOf)}`}`;
}

/** 0..n repetitions, n > 2000: n = q·2000 + r. */
function upToWith(u: string, n: number, blockOf: () => string): string {
  if (n <= LIMIT) return n === 1 ? `${u}?` : `${u}{0,${n}}`;
  const q = Math.floor(n / LIMIT);
  const r = n % LIMIT;
  const block = blockOf();
  // lengths 0..q·2000 (q blocks minus one, plus up to one more block), or q blocks + 0..r
  const low = `${q - 1 === 0 ? '' : `${q - 1 === 1 ? `${block}?` : `${block}{0,${q - 1}}`} `}${u}{0,${LIMIT}}`;
  if (r === 0) return `( ${low} )`;
  return `( ${low} | ${exactlyWith(u, q * LIMIT, blockOf)} ${u}{0,${r}} )`;
}
