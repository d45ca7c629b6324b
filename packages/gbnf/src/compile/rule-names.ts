/**
 * Rule names: GBNF allows letters, digits and `-`. Names are derived from the instance path
 * (`root-address-street`), so a grammar reads like the schema.
 * @module
 */

/** @internal Turns any label into a valid, readable GBNF rule name. */
export function _ruleName(label: string): string {
  const name = label
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (name === '') return 'r';
  return name.length > 60 ? name.slice(0, 60).replace(/-$/, '') : name;
}
