/**
 * `@xprotocol/translate` — deterministic MCP tool ↔ XProtocol schema contract translation,
 * capability inference, version rules, error maps and schema safety. Pure: runs in a browser.
 * @module
 */

export { anyCapabilityMatches, capabilityMatches, isValidCapability, isValidGrant } from '@xprotocol/crypto';
export { canonicalSchemaJson, serializeContract } from './canonical.js';
export {
  type CapabilityInferenceInput,
  type CapabilityInferenceMode,
  type CapabilityInferenceResult,
  type InferenceBasis,
  inferCapability,
  inferCapabilityClass,
} from './capability-inference.js';
export type {
  ContractLike,
  GrammarStatus,
  McpPrompt,
  McpPromptSource,
  McpResourceTemplate,
  McpResourceTemplateSource,
  McpTool,
  McpToolSource,
  SchemaContract,
} from './contract.js';
export { contractToMcpTool, type McpToolDefinition, provenanceNote } from './contract-to-mcp.js';
export {
  classifyToolName,
  type DefaultSeams,
  defaultSeams,
  gbnfCompileGrammar,
  semanticAnnotate,
} from './defaults.js';
export {
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  type JsonRpcErrorObject,
  MCP_REQUEST_TIMEOUT,
  type McpErrorFace,
  type McpToolErrorResult,
  mcpErrorToXp,
  mcpToolErrorToXp,
  XP_TO_JSONRPC,
  xpErrorPayloadSchema,
  xpErrorToJsonRpc,
  xpErrorToMcp,
} from './error-map.js';
export { TranslateError, type TranslateErrorCode } from './errors.js';
export { isJsonObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';
export {
  checkJsonLimits,
  DEFAULT_ARGUMENT_LIMITS,
  type JsonLimitCheck,
  type JsonLimits,
} from './json-limits.js';
export {
  assertNamespace,
  contractEntryType,
  isContractKind,
  type KindResult,
  MAX_KIND_LENGTH,
  promptKind,
  resourceTemplateKind,
  resultKind,
  type SegmentResult,
  toolKind,
  toolSegment,
} from './kind.js';
export { type LinearRegExp, linearRegExp, UnboundedPatternError } from './linear-regexp.js';
export {
  assignMcpToolNames,
  MAX_MCP_TOOL_NAME,
  type McpToolNameAssignment,
  type McpToolNameOptions,
  mcpToolBaseName,
  type Sha256,
} from './mcp-tool-name.js';
export { callToolResultSchema, getPromptResultSchema } from './response-schema.js';
export { type CallToolResultPayload, toResponsePayload } from './result-payload.js';
export {
  checkJsonSafety,
  checkSchemaSafety,
  DEFAULT_SCHEMA_LIMITS,
  FORBIDDEN_KEYS,
  type SafetyRefusal,
  type SchemaLimits,
  type SchemaSafetyResult,
} from './schema-safety.js';
export {
  type CompileResult,
  KNOWN_FORMATS,
  SchemaCompiler,
  type SchemaValidateFunction,
  type UnboundedPattern,
  unknownFormats,
} from './schema-validator.js';
export type {
  Annotate,
  AnnotateInput,
  ClassifyToolName,
  CompileGrammar,
  InferredCapabilityClass,
  SiblingTool,
  TranslationSeams,
} from './seams.js';
export { type TranslatePromptContext, translatePrompt } from './translate-prompt.js';
export { translateResourceTemplate } from './translate-resource-template.js';
export {
  type SourceTranslation,
  type TranslateSourceInput,
  type TranslateSourceOptions,
  translateSource,
} from './translate-source.js';
export {
  type ToolOverride,
  type ToolTranslation,
  type TranslateToolContext,
  translateTool,
} from './translate-tool.js';
export type { Refusal, RefusalCode, TranslationWarning, WarningCode } from './translation-report.js';
export { expandUriTemplate, type UriTemplateVariable, uriTemplateVariables } from './uri-template.js';
export {
  bumpVersion,
  compareContracts,
  compareSchemas,
  nextVersion,
  type VersionBump,
  type VersionChange,
} from './version.js';
