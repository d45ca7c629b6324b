/**
 * `xp.schema.catalog` pages (docs/design.md §10): the endpoint's contracts sorted by kind,
 * paged by a cursor that names the last kind already sent. Pages are deterministic: the same
 * catalog and request give the same bytes. A cursor stays meaningful across catalog changes (the
 * next page starts after that kind, whatever was added or removed before it).
 * @module
 */
import {
  capabilityMatches,
  isContractKind,
  isValidGrant,
  type SchemaContract,
  serializeContract,
} from '@xprotocol/translate';
import { RegistryError } from './errors.js';
import type { Registry } from './registry.js';

/** Contracts per page unless the request says otherwise. */
export const DEFAULT_CATALOG_LIMIT = 50;
/** Most contracts per page. */
export const MAX_CATALOG_LIMIT = 500;
/**
 * Most UTF-8 bytes of contracts per page: 1 MiB keeps a page well inside an event's plaintext
 * (about 2.9 MiB, docs/protocol.md §2.4); a page always carries at least one contract.
 */
export const DEFAULT_CATALOG_MAX_BYTES = 1_048_576;

/** The payload of an `xp.schema.catalog` request. */
export interface CatalogRequest {
  /** `next_cursor` of the previous page. */
  cursor?: string;
  limit?: number;
  /** Only kinds matching one of these: a kind, or a prefix pattern `a.b.*` (capability rules). */
  kinds?: string[];
  /**
   * The catalog as the endpoint offers it to MCP clients of this revision, when that is another
   * (docs/protocol.md §10.8); absent: the default catalog.
   */
  revision?: CatalogRevision;
}

/** The MCP revisions an endpoint may have a catalog of its own for. */
export const CATALOG_REVISIONS = ['2026-07-28'] as const;
/** One of {@link CATALOG_REVISIONS}. */
export type CatalogRevision = (typeof CATALOG_REVISIONS)[number];

/** The payload of an `xp.schema.catalog.result`. */
export interface CatalogPage {
  contracts: SchemaContract[];
  /**
   * The endpoint's guidance for models (docs/protocol.md §10.8): on the first page only (a request
   * without a cursor), absent when the endpoint has none, at most {@link MAX_CATALOG_INSTRUCTIONS}
   * characters.
   */
  instructions?: string;
  /**
   * The MCP revisions whose clients the endpoint offers another catalog, to ask for with the
   * request's `revision` (docs/protocol.md §10.8): on the default catalog's first page only, absent
   * when there is none.
   */
  revisions?: CatalogRevision[];
  /** Present when more contracts follow. */
  next_cursor?: string;
  /** Number of contracts matching the request's `kinds` (all pages). */
  total: number;
}

const CURSOR_PREFIX = 'after:';

/** The most characters (UTF-16 code units) of a page's `instructions`; a reader ignores longer ones. */
export const MAX_CATALOG_INSTRUCTIONS = 8192;

/**
 * Reads a catalog request from untrusted JSON (an absent payload is `{}`); throws
 * {@link RegistryError} `INVALID_CATALOG_REQUEST` saying what was expected.
 * @example
 * parseCatalogRequest({ limit: 10, kinds: ['com.acme.*'] });
 */
export function parseCatalogRequest(payload: unknown): CatalogRequest {
  if (payload === undefined || payload === null) return {};
  if (typeof payload !== 'object' || Array.isArray(payload)) {
    throw new RegistryError(
      'INVALID_CATALOG_REQUEST',
      `catalog request: expected an object {cursor?, limit?, kinds?, revision?}, got ${Array.isArray(payload) ? 'an array' : typeof payload}`,
    );
  }
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!['cursor', 'limit', 'kinds', 'revision'].includes(key)) {
      throw new RegistryError(
        'INVALID_CATALOG_REQUEST',
        `catalog request: unknown field ${JSON.stringify(key)} (expected cursor, limit, kinds, revision)`,
      );
    }
  }
  const out: CatalogRequest = {};
  if (p.cursor !== undefined) {
    if (
      typeof p.cursor !== 'string' ||
      !p.cursor.startsWith(CURSOR_PREFIX) ||
      !isContractKind(p.cursor.slice(CURSOR_PREFIX.length))
    ) {
      throw new RegistryError(
        'INVALID_CATALOG_REQUEST',
        `cursor: expected a next_cursor from a previous page, got ${JSON.stringify(p.cursor)}`,
      );
    }
    out.cursor = p.cursor;
  }
  if (p.limit !== undefined) {
    if (
      typeof p.limit !== 'number' ||
      !Number.isInteger(p.limit) ||
      p.limit < 1 ||
      p.limit > MAX_CATALOG_LIMIT
    ) {
      throw new RegistryError(
        'INVALID_CATALOG_REQUEST',
        `limit: expected an integer from 1 to ${MAX_CATALOG_LIMIT}, got ${JSON.stringify(p.limit)}`,
      );
    }
    out.limit = p.limit;
  }
  if (p.kinds !== undefined) {
    if (
      !Array.isArray(p.kinds) ||
      p.kinds.length > 256 ||
      !p.kinds.every((k) => isValidGrant(k) && k !== '*')
    ) {
      throw new RegistryError(
        'INVALID_CATALOG_REQUEST',
        'kinds: expected at most 256 kinds or prefix patterns like "com.acme.*"',
      );
    }
    out.kinds = [...(p.kinds as string[])];
  }
  if (p.revision !== undefined) {
    if (!CATALOG_REVISIONS.includes(p.revision as CatalogRevision)) {
      throw new RegistryError(
        'INVALID_CATALOG_REQUEST',
        `revision: expected one of ${CATALOG_REVISIONS.join(', ')}, got ${JSON.stringify(p.revision)}`,
      );
    }
    out.revision = p.revision as CatalogRevision;
  }
  return out;
}

/**
 * One page of the catalog.
 * @example
 * const first = catalogPage(registry, { limit: 2 });
 * const second = catalogPage(registry, { limit: 2, cursor: first.next_cursor });
 */
export function catalogPage(
  catalog: Registry | readonly SchemaContract[],
  request: CatalogRequest = {},
  options: { maxBytes?: number } = {},
): CatalogPage {
  const all = Array.isArray(catalog)
    ? [...(catalog as readonly SchemaContract[])].sort(_byKind)
    : (catalog as Registry).contracts();
  const filters = request.kinds;
  const matching =
    filters === undefined || filters.length === 0
      ? all
      : all.filter((c) => filters.some((f) => f === c.kind || capabilityMatches(f, c.kind)));
  const after = request.cursor?.slice(CURSOR_PREFIX.length);
  const start = after === undefined ? 0 : _firstAfter(matching, after);
  const limit = request.limit ?? DEFAULT_CATALOG_LIMIT;
  const maxBytes = options.maxBytes ?? DEFAULT_CATALOG_MAX_BYTES;
  const contracts: SchemaContract[] = [];
  let bytes = 0;
  for (let i = start; i < matching.length && contracts.length < limit; i++) {
    const contract = matching[i] as SchemaContract;
    const size = _utf8(serializeContract(contract));
    if (contracts.length > 0 && bytes + size > maxBytes) break;
    contracts.push(contract);
    bytes += size;
  }
  const page: CatalogPage = { contracts, total: matching.length };
  const last = contracts[contracts.length - 1];
  if (last !== undefined && start + contracts.length < matching.length)
    page.next_cursor = `${CURSOR_PREFIX}${last.kind}`;
  return page;
}

/**
 * The canonical JSON of a page: keys sorted (RFC 8785) and each contract by `serializeContract`
 * (which keeps `properties` declaration order).
 */
export function serializeCatalogPage(page: CatalogPage): string {
  const contracts = `[${page.contracts.map(serializeContract).join(',')}]`;
  const cursor = page.next_cursor === undefined ? '' : `,"next_cursor":${JSON.stringify(page.next_cursor)}`;
  // Keys in RFC 8785 order (a string's JSON is its RFC 8785 form): a page without instructions is
  // byte for byte what it was before them.
  const instructions =
    page.instructions === undefined ? '' : `,"instructions":${JSON.stringify(page.instructions)}`;
  const revisions = page.revisions === undefined ? '' : `,"revisions":${JSON.stringify(page.revisions)}`;
  return `{"contracts":${contracts}${instructions}${cursor}${revisions},"total":${page.total}}`;
}

function _firstAfter(sorted: readonly SchemaContract[], kind: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as SchemaContract).kind <= kind) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function _byKind(a: SchemaContract, b: SchemaContract): number {
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}

function _utf8(text: string): number {
  return new TextEncoder().encode(text).length;
}
