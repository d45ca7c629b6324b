/**
 * Protobuf names derived from JSON names: valid identifiers, deterministic, unique within their
 * scope. A JSON property name that is already a valid identifier is kept as it is; any other is
 * spelled with `_` for each character protobuf does not allow (a leading digit gets `f_`), and a
 * clash gets `_2`, `_3`… in the order the names are handed out (sorted property order).
 * @module
 */

const IDENT = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A valid protobuf field name close to `json`. */
export function fieldNameOf(json: string): string {
  if (IDENT.test(json)) return json;
  const spelled = json.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z]/.test(spelled) ? spelled : `f_${spelled}`;
}

/** `read_file`, `read-file`, `readFile` → `ReadFile` (message and enum names). */
export function pascalCaseOf(json: string): string {
  const words = json.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (joined === '') return 'X';
  return /^[A-Za-z]/.test(joined) ? joined : `X${joined}`;
}

/** `in-progress` → `IN_PROGRESS` (enum value names). */
export function upperSnakeOf(json: string): string {
  const spelled = json
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return spelled === '' ? 'EMPTY' : spelled;
}

/** Hands out names unique within one scope (a message's fields, a file's top-level types…). */
export class NameScope {
  private readonly taken = new Set<string>();

  /** Reserves `name` as it is (a name the scope must not reuse). */
  reserve(name: string): void {
    this.taken.add(name);
  }

  /** `base`, or `base_2`, `base_3`… whichever is free first; the name is then taken. */
  unique(base: string, separator = '_'): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${separator}${i}`;
    this.taken.add(name);
    return name;
  }
}
