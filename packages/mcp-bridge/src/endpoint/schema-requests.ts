/**
 * The endpoint's discovery requests, which need no capability (docs/protocol.md §10.8):
 * `xp.schema.catalog` (a page of its contracts, public: answered signed, not encrypted, the page's
 * exact bytes fixed), `xp.schema.describe` (a sealed query, a sealed ranked answer), and
 * `xp.schema.refresh`, which is refused: the endpoint re-lists its sources on its own schedule.
 * @module
 */
import { decryptVerifiedEvent, getTag, type XpEvent } from '@xprotocol/crypto';
import { serializeCatalogPage } from '@xprotocol/registry';
import { CATALOG_RESULT_KIND, DESCRIBE_RESULT_KIND, xpError } from '@xprotocol/wire';
import type { EndpointCatalog } from './endpoint-catalog.js';
import type { InboundOutcome } from './endpoint-options.js';
import { type _Inbound, _openJson } from './inbound.js';

/** `xp.schema.catalog`: empty, or JSON `{cursor?, limit?, kinds?}` in the clear or sealed; a page of contracts. */
export function _answerCatalog(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  const request = _catalogRequest(inbound, event);
  if (!request.ok)
    return inbound.answers.error(
      event,
      xpError('SCHEMA_VIOLATION', 'a catalog request is empty or JSON {cursor?, limit?, kinds?}'),
    );
  let page: ReturnType<EndpointCatalog['page']>;
  try {
    page = inbound.o.catalog.page(request.value);
  } catch (error) {
    return inbound.answers.error(event, xpError('SCHEMA_VIOLATION', (error as Error).message));
  }
  // Catalog pages are public (docs/protocol.md §10.8): signed, not encrypted, in one byte form.
  return inbound.answers.signed(event, CATALOG_RESULT_KIND, serializeCatalogPage(page));
}

/** The catalog request's JSON (nothing for an empty one); not `ok` when it cannot be read. */
function _catalogRequest(inbound: _Inbound, event: XpEvent): { ok: true; value: unknown } | { ok: false } {
  if (event.content === '') return { ok: true, value: undefined };
  try {
    const text = getTag(event, 'x25519')
      ? decryptVerifiedEvent(event, inbound.o.identity, { cipher: inbound.o.cipher }).plaintext
      : event.content;
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `xp.schema.describe`: a sealed query, a sealed ranked answer; no capability needed. */
export async function _answerDescribe(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  const opened = await _openJson(inbound, event);
  if ('outcome' in opened) return opened.outcome;
  const query: unknown = opened.value;
  let matches: ReturnType<EndpointCatalog['describe']>;
  try {
    matches = inbound.o.catalog.describe(query);
  } catch (error) {
    return inbound.answers.error(event, xpError('SCHEMA_VIOLATION', (error as Error).message));
  }
  return inbound.answers.answer(event, DESCRIBE_RESULT_KIND, { matches }, undefined);
}

/**
 * `xp.schema.refresh`: refused with `NOT_FOUND`. Re-listing every upstream on a stranger's request
 * would make the endpoint an amplifier; it re-lists on its own schedule and tells a changed
 * catalog by a new announce (docs/protocol.md §10.3, §10.8).
 */
export function _refuseRefresh(inbound: _Inbound, event: XpEvent): Promise<InboundOutcome> {
  return inbound.answers.error(
    event,
    xpError(
      'NOT_FOUND',
      'xp.schema.refresh is not accepted here: this endpoint re-lists its sources on its own schedule and announces a changed catalog',
    ),
  );
}
