/**
 * Input makers shared by the targets: text of every kind (including invalid UTF-16), JSON values,
 * frames shaped like the protocol's (a known type and random parts), and mutations of a valid
 * event — the inputs most likely to get past the first check.
 * @module
 */
import fc from 'fast-check';

/** Any text: printable, full Unicode, lone surrogates. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    maxLength: 4,
  }),
);

/** Any JSON value, small. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4 });

/** JSON text of `[type, ...parts]` with a type from `types` (or any string), or any text at all. */
export function frame(types: readonly string[]): fc.Arbitrary<string> {
  const part = fc.oneof(
    anyJson,
    fc.dictionary(
      fc.constantFrom('ids', 'authors', 'kinds', '#e', '#p', 'since', 'until', 'limit', 'id', 'kind'),
      anyJson,
    ),
  );
  return fc.oneof(
    { weight: 1, arbitrary: anyText },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom(...types), fc.string({ maxLength: 8 })),
          fc.array(part, { maxLength: 4 }),
        )
        .map(([type, parts]) => JSON.stringify([type, ...parts])),
    },
  );
}

/** A change to a JSON object: a field set to any value, removed, or added. */
export type Mutation =
  | { op: 'set'; field: string; value: unknown }
  | { op: 'delete'; field: string }
  | { op: 'flip'; field: string; at: number }
  | { op: 'none' };

/** Mutations of an object with `fields`: replaced, removed, one character flipped, or none. */
export function mutation(fields: readonly string[]): fc.Arbitrary<Mutation> {
  const field = fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 6 }));
  return fc.oneof(
    fc.record({ op: fc.constant('set' as const), field, value: anyJson }),
    fc.record({ op: fc.constant('delete' as const), field }),
    fc.record({ op: fc.constant('flip' as const), field: fc.constantFrom(...fields), at: fc.nat() }),
    fc.constant({ op: 'none' as const }),
  );
}

/** `value` changed by `m` (a copy). */
export function mutate(value: Record<string, unknown>, m: Mutation): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(value);
  if (m.op === 'set') copy[m.field] = m.value;
  else if (m.op === 'delete') delete copy[m.field];
  else if (m.op === 'flip') {
    const text = JSON.stringify(copy[m.field]);
    if (text !== undefined && text.length > 0) {
      const at = m.at % text.length;
      const replaced = `${text.slice(0, at)}${text[at] === 'a' ? 'b' : 'a'}${text.slice(at + 1)}`;
      try {
        copy[m.field] = JSON.parse(replaced);
      } catch {
        copy[m.field] = replaced;
      }
    }
  }
  return copy;
}
