// The types of discovery.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Reads a catalog request's content (§10.8): empty, or an object of `cursor`, `limit`, `kinds`.
 *
 * @param {string} content
 * @returns {{ cursor?: string, limit: number, kinds: string[] }}
 */
export function readCatalogRequest(content: string): {
  cursor?: string;
  limit: number;
  kinds: string[];
};
/** @param {string} kind @param {string[]} kinds */
export function kindMatches(kind: string, kinds: string[]): boolean;
/**
 * Whether the object at `path` of a contract is a schema's `properties` map, whose members keep
 * their declared order (§10.8; docs/translation.md §1.3).
 *
 * @param {string[]} path
 */
export function isPropertiesMap(path: string[]): boolean;
/**
 * The page content an endpoint answers a catalog request with (§10.8's rules).
 *
 * @param {{ kind: string }[]} catalog @param {string} requestContent
 */
export function catalogPage(
  catalog: {
    kind: string;
  }[],
  requestContent: string,
): string;
/**
 * Reads a catalog page (§10.8): exactly these members in this order, each contract canonical.
 *
 * @param {string} content
 */
export function readCatalogPage(content: string): {
  contracts: {
    kind: string;
  }[];
  next_cursor?: string;
  total: number;
};
/**
 * Reads a describe query (§10.8); other members are ignored.
 *
 * @param {unknown} query
 */
export function readDescribeQuery(query: unknown): {
  intent: string;
  domain: string | undefined;
  verbs: string[];
  subjects: string[];
  limit: number;
};
/**
 * The answer to a describe query without intent, verbs or subjects (§10.8: the contracts of
 * `domain` in kind order, relevance 1); null when the ranking is the endpoint's own.
 *
 * @param {{ kind: string, semantic?: { domain?: string, use_when?: string } }[]} catalog @param {unknown} query
 */
export function browseAnswer(
  catalog: {
    kind: string;
    semantic?: {
      domain?: string;
      use_when?: string;
    };
  }[],
  query: unknown,
): {
  matches: {
    kind: string;
    relevance: number;
    use_when: string;
  }[];
};
/**
 * Reads a describe answer (§10.8): matches best first, relevance 0 to 1, the best 1.
 *
 * @param {unknown} payload
 */
export function readDescribeAnswer(payload: unknown): {
  kind: unknown;
  relevance: unknown;
  use_when: unknown;
}[];
export function contractJson(contract: unknown): string;
