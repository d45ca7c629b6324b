/**
 * `@xprotocol/registry` — the live XProtocol catalog: kind and tool maps, persisted schema
 * versions, refresh diffs, the announce (payload, canonical form, signing, reading) and catalog pages. Pure: runs in a browser.
 * @module
 */
export {
  type AnnounceInput,
  type AnnounceMcpSource,
  type AnnounceOptions,
  type AnnouncePayload,
  type AnnounceServedSource,
  type AnnounceXpSource,
  buildAnnouncePayload,
  publicUrl,
  type SignAnnounceOptions,
  serializeAnnouncePayload,
  signAnnounce,
} from './announce.js';
export {
  type Announce,
  newestAnnounce,
  parseAnnouncePayload,
  type ReadAnnounce,
  readAnnounce,
} from './announce-read.js';
export {
  CATALOG_REVISIONS,
  type CatalogPage,
  type CatalogRequest,
  type CatalogRevision,
  catalogPage,
  DEFAULT_CATALOG_LIMIT,
  DEFAULT_CATALOG_MAX_BYTES,
  MAX_CATALOG_INSTRUCTIONS,
  MAX_CATALOG_LIMIT,
  parseCatalogRequest,
  serializeCatalogPage,
} from './catalog-page.js';
export { RegistryError, type RegistryErrorCode } from './errors.js';
export {
  type McpFaceSource,
  McpToolTable,
  type McpToolTarget,
  type McpToolUpdate,
} from './mcp-tool-table.js';
export { MemoryNameStore, type NameStore } from './name-store.js';
export { type ChangedKind, type ContractOrigin, type RefreshDiff, Registry } from './registry.js';
export { MemoryVersionStore, type VersionRecord, type VersionStore } from './version-store.js';
