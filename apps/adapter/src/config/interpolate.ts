/**
 * `${NAME}` interpolation of configuration strings (docs/config.md). Every string value of the
 * configuration goes through it before validation:
 * - `${NAME}` is the variable's value (set but empty gives `''`); unset is an error naming it;
 * - `${NAME:-default}` is the value, or `default` when the variable is unset or empty;
 * - `$${` is a literal `${` (nothing after it is interpolated);
 * - a `$` not followed by `{` is kept as it is (`$NAME` without braces is not interpolated).
 * `NAME` is `[A-Za-z_][A-Za-z0-9_]*`; the default is plain text up to the first `}` (no nesting).
 * @module
 */

/** The interpolated text, or what stopped it; `variables` lists the names used, in order. */
export type InterpolationResult =
  | { ok: true; value: string; variables: string[] }
  | { ok: false; reason: string; missing: string[] };

const EXPRESSION = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Interpolates `${NAME}` and `${NAME:-default}` from `env`.
 * @example
 * interpolateEnv('${HOME}/data', { HOME: '/home/ada' }); // { ok: true, value: '/home/ada/data', variables: ['HOME'] }
 * interpolateEnv('${PORT:-8080}', {}); // { ok: true, value: '8080', variables: ['PORT'] }
 * interpolateEnv('$${HOME}', {}); // { ok: true, value: '${HOME}', variables: [] }
 * interpolateEnv('${TOKEN}', {}); // { ok: false, reason: 'environment variable TOKEN is not set', missing: ['TOKEN'] }
 */
export function interpolateEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): InterpolationResult {
  if (!text.includes('${')) return { ok: true, value: text, variables: [] };
  let out = '';
  const variables: string[] = [];
  const missing: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!text.startsWith('${', i)) {
      out += text[i];
      i++;
      continue;
    }
    const end = text.indexOf('}', i + 2);
    if (end < 0) {
      return {
        ok: false,
        reason: `unterminated "\${" at character ${i + 1}: expected \${NAME} or \${NAME:-default}`,
        missing: [],
      };
    }
    const inner = text.slice(i + 2, end);
    const match = EXPRESSION.exec(inner);
    if (!match) {
      const shown = inner.length > 40 ? `${inner.slice(0, 37)}...` : inner;
      return {
        ok: false,
        reason: `invalid expression "\${${shown}}" at character ${i + 1}: expected \${NAME} or \${NAME:-default}, NAME of [A-Za-z_][A-Za-z0-9_]* (write $\${ for a literal "\${")`,
        missing: [],
      };
    }
    const name = match[1]!;
    const fallback = match[2];
    const value = env[name];
    variables.push(name);
    if (fallback !== undefined) {
      out += value === undefined || value === '' ? fallback : value;
    } else if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
    } else {
      out += value;
    }
    i = end + 1;
  }
  if (missing.length > 0) {
    const names = missing.join(', ');
    return {
      ok: false,
      reason:
        missing.length === 1
          ? `environment variable ${names} is not set (use \${${missing[0]}:-default} to give a default)`
          : `environment variables ${names} are not set`,
      missing,
    };
  }
  return { ok: true, value: out, variables };
}
