/**
 * `@xprotocol/mcp-bridge` — the two-way engine between MCP and XProtocol: upstream MCP sessions,
 * the inbound XProtocol endpoint (Direction 1), the caller of remote endpoints (Direction 2), and
 * the durable state that makes calls run at most once.
 * @module
 */

export type { FaceAuth, FaceAuthRefusal, FaceAuthVerdict, FacePrincipal } from './auth/face-auth.js';
export { OAuthFaceAuth, type OAuthFaceAuthOptions } from './auth/oauth-face-auth.js';
export { staticBearerAuth } from './auth/static-bearer-auth.js';
export {
  type EndpointVouch,
  type EndpointVouchOptions,
  type EndpointVouchRefusal,
  vouchForEndpoint,
} from './caller/endpoint-vouching.js';
export {
  type CallOutcome,
  type CallRequest,
  XpCaller,
  type XpCallerOptions,
} from './caller/xp-caller.js';
export { ANNOUNCE_INTERVAL_MS, Announcer } from './discovery/announce.js';
export { addDiscoveredRelays, type DiscoveredRelays } from './discovery/discovered-relays.js';
export {
  checkDnsKey,
  type DnsCheckOptions,
  type DnsCheckOutcome,
  type DnsPolicy,
} from './discovery/dns-check.js';
export {
  dnsRecordName,
  formatDnsRecord,
  type ParsedDnsRecords,
  parseDnsRecords,
} from './discovery/dns-txt.js';
export { SchemaSearch, type SearchEntry } from './discovery/schema-search.js';
export {
  type DiscoveryServer,
  type DiscoveryServerOptions,
  MAX_DOCUMENT_BYTES,
  type ResolveXpEndpointOptions,
  resolveXpEndpoint,
  SCHEMAS_PATH,
  serveDiscovery,
  WELL_KNOWN_PATH,
  type WellKnownDocument,
  wellKnownUrl,
} from './discovery/well-known.js';
export type { EndpointCatalog, EndpointTool } from './endpoint/endpoint-catalog.js';
export type { InboundOutcome, XpEndpointOptions } from './endpoint/endpoint-options.js';
export type { ToolProvider } from './endpoint/tool-provider.js';
export { XpEndpoint } from './endpoint/xp-endpoint.js';
export { BridgeError, type BridgeErrorCode } from './errors.js';
export {
  boundInstructions,
  composeFaceInstructions,
  composeSourceSections,
  ENDPOINT_INSTRUCTIONS_LIMIT,
  type FaceInstructionsInput,
  INSTRUCTIONS_LIMIT,
  type InstructionSource,
  SOURCE_INSTRUCTIONS_LIMIT,
  SUMMARY_LIMIT,
} from './face/face-instructions.js';
export type {
  FaceLimits,
  FaceServerOptions,
  LocalToolSource,
  McpFaceOptions,
  XpToolSource,
} from './face/face-options.js';
export { DEFAULT_IDEMPOTENCY_WINDOW_SECONDS, IDEMPOTENCY_KEY_META } from './face/idempotent-calls.js';
export { DESCRIBE_TOOL, type ListingMode } from './face/listing-modes.js';
export { McpFace } from './face/mcp-face.js';
export type { FaceRateLimited } from './face/rate-limit.js';
export type { FaceMayUse, FaceRequestNeeds } from './face/request-scopes.js';
export { SEARCH_TOOL } from './face/search-tool.js';
export { type BridgeLogger, silentLogger } from './logger.js';
export { argumentsHash } from './observe/arguments-hash.js';
export { AuditLog, type AuditLogOptions } from './observe/audit-log.js';
export { CallMetrics } from './observe/call-metrics.js';
export {
  type CallObserver,
  type CallPath,
  type CallRecord,
  type CallVerdict,
  fanOutObserver,
} from './observe/call-observer.js';
export { OtlpHttpExporter, type OtlpHttpExporterOptions } from './observe/otlp-http-exporter.js';
export { formatTraceparent, parseTraceparent, type SpanContext } from './observe/trace-context.js';
export {
  type EndedSpan,
  type Span,
  type SpanAttribute,
  type SpanExporter,
  type SpanKind,
  type StartSpanOptions,
  Tracer,
} from './observe/tracer.js';
export { DEFAULT_MAX_RESPONSE_BYTES, type OperationResult } from './openapi/openapi-call.js';
export {
  DEFAULT_MAX_DOCUMENT_BYTES,
  loadOpenApiDocument,
  type OpenApiDocument,
} from './openapi/openapi-document.js';
export {
  type OpenApiRefusal,
  type OpenApiTool,
  type OpenApiTranslation,
  operationToolName,
  translateOperations,
} from './openapi/openapi-operations.js';
export type { OpenApiCredential } from './openapi/openapi-request.js';
export {
  OpenApiService,
  type OpenApiServiceOptions,
  type OpenApiSnapshot,
} from './openapi/openapi-service.js';
export { type AccessConfig, AccessPolicy, type AccessVerdict } from './policy/access.js';
export type { ApprovalMode } from './policy/approval-mode.js';
export { type ArgumentCheck, compileArgumentValidator } from './policy/argument-validator.js';
export {
  type DescriptionFinding,
  type DescriptionFindingCode,
  lintListedValue,
  lintToolDefinition,
  MAX_DESCRIPTION_CHARACTERS,
  MAX_PADDING_RUN,
} from './policy/description-lint.js';
export { escapeForDisplay } from './policy/display-escape.js';
export { type DescriptionLintMode, ListingScreen } from './policy/listing-screen.js';
export {
  applyToolPins,
  type PinnedListing,
  type QuarantinedTool,
  type ToolPin,
  type ToolPinStore,
  toolDefinitionHash,
} from './policy/tool-pins.js';
export {
  PROTO_MCP_PACKAGE,
  PROTO_MCP_VERSION,
  protoMcpFile,
  protoMcpMessage,
  protoMcpRegistry,
} from './serving/proto-mcp-messages.js';
export { PROTO_MCP_ERRORS } from './serving/proto-mcp-session.js';
export { serveMcpFace } from './serving/serve-mcp-face.js';
export type {
  McpFaceHttpRefusal,
  McpFaceHttpRefusalReason,
  McpFaceServeOptions,
  McpFaceServer,
} from './serving/serve-options.js';
export { type RecordedCall, readRecordedCalls } from './state/recorded-calls.js';
export type { ReplayForgetting, ReplayMemoryOptions } from './state/replay-memory.js';
export { type AdoptedWork, SharedJournal, type SharedJournalOptions } from './state/shared-journal.js';
export {
  type InboundStatus,
  isPostgresUrl,
  StateDatabase,
  type UnfinishedCall,
} from './state/state-database.js';
export { readStatusRecord, type StatusRecord } from './state/state-status.js';
export {
  type AskOutcome,
  type AuthorizationAsker,
  AuthorizationNeededError,
  isAuthorizationNeeded,
  withAuthorizationAsker,
} from './upstream/authorization-asker.js';
export { type BackoffOptions, backoffDelay } from './upstream/backoff.js';
export { CrashBreaker, type CrashBreakerOptions } from './upstream/breaker.js';
export { describeExit, type SupervisionOptions } from './upstream/supervisor.js';
export {
  type UpstreamCallResult,
  type UpstreamRequestOptions,
  UpstreamSession,
  type UpstreamSessionOptions,
  type UpstreamTool,
} from './upstream/upstream-session.js';
export type { UpstreamTransport } from './upstream/upstream-transport.js';
export {
  type AuthorizationServer,
  type BearerChallenge,
  type DiscoveredAuthorization,
  discoverAuthorization,
  parseBearerChallenge,
} from './upstream-auth/oauth-discovery.js';
export type { StoredGrant, UpstreamTokenStore } from './upstream-auth/oauth-grant.js';
export { loginToUpstream, type UpstreamLoginOptions } from './upstream-auth/oauth-login.js';
export { UpstreamOAuth, type UpstreamOAuthOptions } from './upstream-auth/oauth-provider.js';
export type { OAuthClient, OAuthTokens } from './upstream-auth/oauth-token-request.js';
export type { MetadataUrlRules } from './upstream-auth/oauth-url-check.js';
export { type SealedRows, sealedGrantStore } from './upstream-auth/sealed-grant-store.js';
