/**
 * A filter as one Postgres SELECT over the events table: the same answers, in the same order, as
 * the in-memory and SQLite stores (newest first, ties by id, at most `limit`).
 * @module
 */
import type { Filter } from '@xprotocol/wire';
import { _EVENTS_TABLE } from './postgres-schema.js';
import { _idBytes, _keyBytes } from './stored-keys.js';

/** The tags whose values are kept, as `name:value`, in the `tags` column. */
export const _INDEXED_TAGS = new Set(['p', 'e']);

/** The SELECT of one filter, or `undefined` when the filter cannot match (an empty list). */
export function _postgresQuery(
  filter: Filter,
  nowSeconds: number,
): { text: string; values: unknown[] } | undefined {
  // Ids and keys are stored as bytes; a value that is not an id or a key matches no stored event.
  const ids = filter.ids?.flatMap((id) => _idBytes(id) ?? []);
  const authors = filter.authors?.flatMap((key) => _keyBytes(key) ?? []);
  if ([ids, authors, filter.kinds, filter['#p'], filter['#e']].some((v) => v?.length === 0)) {
    return undefined;
  }
  const values: unknown[] = [nowSeconds];
  const where = ['expires_at > $1'];
  const add = (condition: (at: string) => string, value: unknown) => {
    values.push(value);
    where.push(condition(`$${values.length}`));
  };
  if (ids)
    add(
      (at) => `id = ANY(${at}::bytea[])`,
      ids.map((id) => Buffer.from(id)),
    );
  if (authors)
    add(
      (at) => `pubkey = ANY(${at}::bytea[])`,
      authors.map((key) => Buffer.from(key)),
    );
  if (filter.kinds) add((at) => `kind = ANY(${at}::text[])`, filter.kinds);
  if (filter.since !== undefined) add((at) => `created_at >= ${at}`, filter.since);
  if (filter.until !== undefined) add((at) => `created_at <= ${at}`, filter.until);
  for (const name of ['p', 'e'] as const) {
    const tagValues = filter[`#${name}`];
    if (tagValues)
      add(
        (at) => `tags && ${at}::text[]`,
        tagValues.map((value) => `${name}:${value}`),
      );
  }
  let text = `SELECT json FROM ${_EVENTS_TABLE} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id ASC`;
  if (filter.limit !== undefined) {
    values.push(filter.limit);
    text += ` LIMIT $${values.length}`;
  }
  return { text, values };
}
