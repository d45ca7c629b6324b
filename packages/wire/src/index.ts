/**
 * `@xprotocol/wire` — the XProtocol relay protocol in one place (docs/protocol.md §9, §10): client
 * and relay frames with builders and a validating parser, reason prefixes, filters, per-key token
 * buckets, the reserved `xp.` kinds and the `xp.error` payload. Pure, no I/O, no dependencies.
 * @module
 */
export {
  CLIENT_MESSAGE_TYPES,
  type ClientMessage,
  type ClientMessageParse,
  clientMessage,
  parseClientMessage,
} from './client-message.js';
export {
  type Filter,
  type FilterableEvent,
  type FilterLimits,
  type FilterParse,
  matchesAny,
  matchesFilter,
  parseFilter,
} from './filter.js';
export { type JsonTextParse, MAX_JSON_TEXT_DEPTH, parseJsonText } from './json-text.js';
export {
  ANNOUNCE_KIND,
  CATALOG_KIND,
  CATALOG_RESULT_KIND,
  DELEGATE_KIND,
  DESCRIBE_KIND,
  DESCRIBE_RESULT_KIND,
  ERROR_KIND,
  isAnswerKind,
  isReservedKind,
  isUnansweredKind,
  MCP_KIND_PREFIX,
  MCP_NOTIFICATION_KIND,
  MCP_REQUEST_KIND,
  MCP_REQUEST_RESULT_KIND,
  MCP_SERVER_REQUEST_KIND,
  MCP_SERVER_REQUEST_RESULT_KIND,
  MCP_SESSION_END_KIND,
  REFRESH_KIND,
  RESERVED_KINDS,
  REVOKE_KIND,
  ROTATE_KIND,
} from './kinds.js';
export {
  isMcpRequestMethod,
  MCP_REQUEST_METHODS,
  MCP_SESSION_METHODS,
  type McpRequestMethod,
  type McpRequestParse,
  type McpRequestPayload,
  mcpRequestCapability,
  parseMcpRequestPayload,
} from './mcp-request.js';
export {
  isMcpSessionId,
  MAX_MCP_CAPABILITIES_BYTES,
  MAX_MCP_STATE_BYTES,
  MCP_SESSION_TAG,
  type McpSessionContext,
  type McpSessionEnd,
  type McpSessionInput,
  type McpSessionMessage,
  type McpSessionParse,
  parseMcpSessionContext,
  parseMcpSessionEnd,
  parseMcpSessionMessage,
} from './mcp-session.js';
export {
  isRetryableReason,
  REASON_PREFIXES,
  type ReasonPrefix,
  reason,
  reasonPrefixOf,
  retryAfterOf,
} from './reason.js';
export {
  parseRelayMessage,
  RELAY_MESSAGE_TYPES,
  type RelayMessage,
  type RelayMessageParse,
  relayMessage,
} from './relay-message.js';
export { MAX_SUBSCRIPTION_ID_LENGTH, subscriptionIdProblem } from './subscription-id.js';
export { type TakeResult, TokenBuckets } from './token-bucket.js';
export {
  MAX_WELL_KNOWN_BYTES,
  parseWellKnownDocument,
  WELL_KNOWN_PATH,
  type WellKnownDocument,
} from './well-known.js';
export {
  isXpErrorCode,
  parseXpErrorPayload,
  XP_ERROR_CODES,
  type XpErrorCode,
  type XpErrorDetails,
  type XpErrorPayload,
  type XpJsonValue,
  xpError,
} from './xp-error.js';
