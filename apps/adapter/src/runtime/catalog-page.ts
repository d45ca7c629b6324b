/**
 * Pages of `xp.schema.catalog`: contracts sorted by kind, at most `limit` (default 50, at most
 * 200) and at most ~2 MiB of JSON per page so an answer always fits in one event. The cursor is
 * the last kind of the previous page, base64url-encoded: stable while the catalog changes.
 * @module
 */
import type { CatalogPage } from '@xprotocol/mcp-bridge';
import type { SchemaContract } from '@xprotocol/translate';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** One page after `cursor`. Throws a message for a malformed cursor or limit. */
export function catalogPage(
  contracts: readonly SchemaContract[],
  cursor: string | undefined,
  limit: number | undefined,
): CatalogPage {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new Error(`limit: expected a positive integer, got ${limit}`);
  }
  const size = Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  let after = '';
  if (cursor !== undefined) {
    after = Buffer.from(cursor, 'base64url').toString('utf8');
    if (after === '' || Buffer.from(after, 'utf8').toString('base64url') !== cursor) {
      throw new Error('cursor: expected a next_cursor from an earlier page');
    }
  }
  const sorted = [...contracts].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const page: SchemaContract[] = [];
  let bytes = 0;
  for (const contract of sorted) {
    if (contract.kind <= after) continue;
    const length = Buffer.byteLength(JSON.stringify(contract));
    if (page.length > 0 && (page.length >= size || bytes + length > MAX_PAGE_BYTES)) {
      return { contracts: page, next_cursor: Buffer.from(page.at(-1)!.kind, 'utf8').toString('base64url') };
    }
    page.push(contract);
    bytes += length;
  }
  return { contracts: page };
}
