/** A short description of a JSON value's type, for reasons ("an array", "null", "number"). */
export function _typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
