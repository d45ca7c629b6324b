// testdata/vectors/xp-discovery.json (docs/protocol.md §10.8), the payload half: every catalog
// request of the file, read by `parseCatalogRequest` and paged by `catalogPage` over the file's
// catalog, serializes to exactly the file's page content; every refused request is refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaContract } from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import { catalogPage, parseCatalogRequest, serializeCatalogPage } from '../src/index.js';

interface DiscoveryVectors {
  description: string;
  catalog: SchemaContract[];
  catalog_requests: { id: string; request_content: string; result_content: string }[];
  catalog_refused: { id: string; request_content: string; why: string }[];
}

const vectors = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../testdata/vectors/xp-discovery.json'), 'utf8'),
) as DiscoveryVectors;

/** The page content for a request content, as an endpoint answers it. */
function _page(content: string): string {
  const request = parseCatalogRequest(content === '' ? undefined : JSON.parse(content));
  return serializeCatalogPage(catalogPage(vectors.catalog, request));
}

describe('testdata/vectors/xp-discovery.json (catalog payloads)', () => {
  it.each(vectors.catalog_requests.map((v) => [v.id, v] as const))('%s: the exact page', (_id, v) => {
    expect(_page(v.request_content)).toBe(v.result_content);
  });

  it.each(vectors.catalog_refused.map((v) => [v.id, v] as const))('%s: refused', (_id, v) => {
    expect(() => _page(v.request_content), v.why).toThrow();
  });
});
