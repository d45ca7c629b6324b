/**
 * Discovery: catalog requests and pages, describe queries and answers, written from
 * docs/protocol.md §10.8 alone (and docs/translation.md §1.3, which §10.8 cites for the
 * contracts' canonical form). It imports nothing from this repository: it is one part of an
 * independent XProtocol client that proves the document is enough to interoperate.
 *
 * @module
 */
import { canonicalJson, parseStrictJson, RuleError } from './canonical-json.mjs';

const KIND = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.\*$/;
const PAGE_BYTES = 1024 * 1024;

/** @param {string} why @returns {never} */
function violation(why) {
  throw new RuleError('§10.8', `SCHEMA_VIOLATION: ${why}`);
}

/** @param {unknown} v */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a catalog request's content (§10.8): empty, or an object of `cursor`, `limit`, `kinds`.
 *
 * @param {string} content
 * @returns {{ cursor?: string, limit: number, kinds: string[] }}
 */
export function readCatalogRequest(content) {
  if (content === '') return { limit: 50, kinds: [] };
  let value;
  try {
    value = parseStrictJson(content);
  } catch {
    violation('the content is neither empty nor JSON');
  }
  if (!isObject(value)) violation('the content is a JSON object');
  const r = /** @type {Record<string, unknown>} */ (value);
  for (const name of Object.keys(r))
    if (!['cursor', 'limit', 'kinds'].includes(name)) violation(`unknown member ${name}`);
  if (
    'cursor' in r &&
    (typeof r.cursor !== 'string' || !/^after:/.test(r.cursor) || !KIND.test(r.cursor.slice(6)))
  ) {
    violation('cursor: expected "after:<kind>"');
  }
  if (
    'limit' in r &&
    (!Number.isInteger(r.limit) ||
      /** @type {number} */ (r.limit) < 1 ||
      /** @type {number} */ (r.limit) > 500)
  ) {
    violation('limit: expected an integer from 1 to 500');
  }
  if ('kinds' in r) {
    const k = r.kinds;
    if (
      !Array.isArray(k) ||
      k.length > 256 ||
      k.some((x) => typeof x !== 'string' || !(KIND.test(x) || PATTERN.test(x)))
    ) {
      violation('kinds: expected an array of at most 256 kinds or prefix patterns a.b.*');
    }
  }
  return {
    cursor: /** @type {string} */ (r.cursor),
    limit: /** @type {number} */ (r.limit ?? 50),
    kinds: /** @type {string[]} */ (r.kinds ?? []),
  };
}

/** @param {string} kind @param {string[]} kinds */
export function kindMatches(kind, kinds) {
  if (kinds.length === 0) return true;
  return kinds.some((k) => (k.endsWith('.*') ? kind.startsWith(k.slice(0, -1)) : kind === k));
}

/** Keywords whose value is one schema, a map of schemas, or an array of schemas (JSON Schema). */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Whether the object at `path` of a contract is a schema's `properties` map, whose members keep
 * their declared order (§10.8; docs/translation.md §1.3).
 *
 * @param {string[]} path
 */
export function isPropertiesMap(path) {
  let i;
  if (path[0] === 'payload') i = 1;
  else if ((path[0] === 'response' || path[0] === 'error_response') && path[1] === 'payload') i = 2;
  // The MCP tool's output schema, kept in `source` (docs/translation.md §1), is a schema too.
  else if (path[0] === 'source' && path[1] === 'outputSchema') i = 2;
  else return false;
  // Walk keyword by keyword from the schema root; a name inside a map is a name, not a keyword.
  while (i < path.length) {
    const keyword = path[i];
    if (i === path.length - 1) return keyword === 'properties';
    if (ONE.includes(keyword)) i += 1;
    else if (MAP.includes(keyword) || LIST.includes(keyword)) i += 2;
    else return false;
  }
  return false;
}

/** A contract in its canonical form (§10.8). @param {unknown} contract */
export const contractJson = (contract) => canonicalJson(contract, isPropertiesMap);

/**
 * The page content an endpoint answers a catalog request with (§10.8's rules).
 *
 * @param {{ kind: string }[]} catalog @param {string} requestContent
 */
export function catalogPage(catalog, requestContent) {
  const request = readCatalogRequest(requestContent);
  const matching = catalog
    .filter((c) => kindMatches(c.kind, request.kinds))
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const after = request.cursor?.slice(6);
  const rest = after === undefined ? matching : matching.filter((c) => c.kind > after);
  const page = [];
  let bytes = 0;
  for (const c of rest) {
    const text = contractJson(c);
    const size = Buffer.byteLength(text, 'utf8');
    if (page.length >= request.limit || (page.length > 0 && bytes + size > PAGE_BYTES)) break;
    page.push(text);
    bytes += size;
  }
  const more = rest.length > page.length;
  const last = more ? /** @type {{ kind: string }} */ (rest[page.length - 1]).kind : undefined;
  return `{"contracts":[${page.join(',')}]${more ? `,"next_cursor":${JSON.stringify(`after:${last}`)}` : ''},"total":${matching.length}}`;
}

/**
 * Reads a catalog page (§10.8): exactly these members in this order, each contract canonical.
 *
 * @param {string} content
 */
export function readCatalogPage(content) {
  const page = /** @type {Record<string, any>} */ (parseStrictJson(content));
  const fail = (/** @type {string} */ why) => {
    throw new RuleError('§10.8', `not a catalog page: ${why}`);
  };
  if (!isObject(page) || !Array.isArray(page.contracts) || !Number.isSafeInteger(page.total))
    fail('expected {contracts, next_cursor?, total}');
  const expected = `{"contracts":[${page.contracts.map(contractJson).join(',')}]${
    page.next_cursor === undefined ? '' : `,"next_cursor":${JSON.stringify(page.next_cursor)}`
  },"total":${page.total}}`;
  if (expected !== content) {
    let at = 0;
    while (expected[at] === content[at]) at++;
    fail(
      `the content is not the exact canonical page: at character ${at}, got ${JSON.stringify(content.slice(at - 60, at + 60))}, expected ${JSON.stringify(expected.slice(at - 60, at + 60))}`,
    );
  }
  const kinds = page.contracts.map((/** @type {{ kind: string }} */ c) => c.kind);
  if (kinds.some((k, i) => i > 0 && !(kinds[i - 1] < k))) fail('contracts are not sorted by kind');
  if (page.next_cursor !== undefined && page.next_cursor !== `after:${kinds.at(-1)}`)
    fail('next_cursor does not name the last kind');
  return /** @type {{ contracts: { kind: string }[], next_cursor?: string, total: number }} */ (page);
}

/**
 * Reads a describe query (§10.8); other members are ignored.
 *
 * @param {unknown} query
 */
export function readDescribeQuery(query) {
  if (!isObject(query)) violation('the query is a JSON object');
  const q = /** @type {Record<string, unknown>} */ (query);
  if ('intent' in q && typeof q.intent !== 'string') violation('intent: expected a string');
  if ('domain' in q && typeof q.domain !== 'string') violation('domain: expected a string');
  for (const name of ['intent_verbs', 'data_subjects']) {
    const v = q[name];
    if (name in q && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
      violation(`${name}: expected an array of strings`);
  }
  if (
    'limit' in q &&
    (!Number.isInteger(q.limit) ||
      /** @type {number} */ (q.limit) < 1 ||
      /** @type {number} */ (q.limit) > 100)
  ) {
    violation('limit: expected an integer from 1 to 100');
  }
  return {
    intent: /** @type {string} */ (q.intent ?? ''),
    domain: /** @type {string | undefined} */ (q.domain),
    verbs: /** @type {string[]} */ (q.intent_verbs ?? []),
    subjects: /** @type {string[]} */ (q.data_subjects ?? []),
    limit: /** @type {number} */ (q.limit ?? 10),
  };
}

/**
 * The answer to a describe query without intent, verbs or subjects (§10.8: the contracts of
 * `domain` in kind order, relevance 1); null when the ranking is the endpoint's own.
 *
 * @param {{ kind: string, semantic?: { domain?: string, use_when?: string } }[]} catalog @param {unknown} query
 */
export function browseAnswer(catalog, query) {
  const q = readDescribeQuery(query);
  if (q.intent !== '' || q.verbs.length > 0 || q.subjects.length > 0) return null;
  const matches = catalog
    .filter((c) => q.domain === undefined || c.semantic?.domain === q.domain)
    .sort((a, b) => (a.kind < b.kind ? -1 : 1))
    .slice(0, q.limit)
    .map((c) => ({ kind: c.kind, relevance: 1, use_when: c.semantic?.use_when ?? '' }));
  return { matches };
}

/**
 * Reads a describe answer (§10.8): matches best first, relevance 0 to 1, the best 1.
 *
 * @param {unknown} payload
 */
export function readDescribeAnswer(payload) {
  const fail = (/** @type {string} */ why) => {
    throw new RuleError('§10.8', `not a describe answer: ${why}`);
  };
  if (!isObject(payload) || !Array.isArray(/** @type {any} */ (payload).matches))
    fail('expected {matches: [...]}');
  const matches = /** @type {{ kind: unknown, relevance: unknown, use_when: unknown }[]} */ (
    /** @type {any} */ (payload).matches
  );
  for (const m of matches) {
    if (!isObject(m) || typeof m.kind !== 'string' || !KIND.test(m.kind) || typeof m.use_when !== 'string')
      fail('a match is {kind, relevance, use_when}');
    if (typeof m.relevance !== 'number' || m.relevance < 0 || m.relevance > 1)
      fail('relevance is from 0 to 1');
  }
  if (
    matches.some(
      (m, i) =>
        i > 0 && /** @type {number} */ (m.relevance) > /** @type {number} */ (matches[i - 1].relevance),
    )
  )
    fail('matches are best first');
  if (matches.length > 0 && matches[0].relevance !== 1) fail('relevance is relative to the best match (1)');
  return matches;
}
