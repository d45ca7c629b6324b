/**
 * Cursors of aggregated lists. The face walks the upstreams in configuration order, one upstream
 * page per face page; its cursor names the upstream (by position) and that upstream's own cursor,
 * so every upstream paginates as it likes. The cursor is opaque to the client (base64url JSON).
 * @module
 */
import { ProtocolError } from '@modelcontextprotocol/server';

/** Where a face page starts: upstream `index` (among those offering the list), at its `cursor`. */
export interface _GatewayPosition {
  index: number;
  cursor?: string | undefined;
}

/** Encodes a position as a face cursor. */
export function _encodeCursor(position: _GatewayPosition): string {
  return Buffer.from(
    JSON.stringify(position.cursor === undefined ? [position.index] : [position.index, position.cursor]),
  ).toString('base64url');
}

/** Decodes a face cursor; a cursor the face did not issue is -32602 (Invalid params). */
export function _decodeCursor(cursor: string | undefined, upstreams: number): _GatewayPosition {
  if (cursor === undefined) return { index: 0 };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (
    Array.isArray(value) &&
    Number.isInteger(value[0]) &&
    value[0] >= 0 &&
    value[0] < upstreams &&
    (value.length === 1 || (value.length === 2 && typeof value[1] === 'string'))
  ) {
    return { index: value[0] as number, cursor: value[1] as string | undefined };
  }
  throw new ProtocolError(
    -32602,
    `Invalid cursor: expected a cursor from an earlier page of this list, got ${JSON.stringify(cursor)}`,
  );
}

/** The next face position after a page of upstream `index` that answered `nextCursor`. */
export function _nextPosition(
  index: number,
  nextCursor: unknown,
  upstreams: number,
): _GatewayPosition | undefined {
  if (typeof nextCursor === 'string' && nextCursor !== '') return { index, cursor: nextCursor };
  return index + 1 < upstreams ? { index: index + 1 } : undefined;
}

/**
 * One upstream's page as the aggregate answers it: the entries under `key` mapped by `note`
 * (routes noted, names assigned), and the upstream's cursor replaced by the aggregate's cursor
 * over all `upstreams` (none after the last page of the last upstream).
 */
export function _aggregatePage(
  page: Record<string, unknown>,
  key: string,
  index: number,
  upstreams: number,
  note: (item: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const items = Array.isArray(page[key]) ? (page[key] as Record<string, unknown>[]) : [];
  const next = _nextPosition(index, page.nextCursor, upstreams);
  const { nextCursor: _upstreamCursor, ...result } = page;
  return {
    ...result,
    [key]: items.map(note),
    ...(next && { nextCursor: _encodeCursor(next) }),
  };
}
