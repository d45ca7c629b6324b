/**
 * The schema contract (docs/design.md §2) and the MCP shapes it is made from. A contract is plain
 * JSON; its canonical form is {@link serializeContract}.
 * @module
 */
import type { JsonObject, JsonSchema } from './json.js';

/** An MCP tool as `tools/list` returns it (MCP 2025-11-25). Extra fields are ignored. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`, `title`, … */
  annotations?: JsonObject;
  /** e.g. `{ taskSupport: "optional" }` */
  execution?: JsonObject;
}

/** An MCP prompt as `prompts/list` returns it. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** An MCP resource template as `resources/templates/list` returns it. */
export interface McpResourceTemplate {
  name: string;
  uriTemplate: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** Provenance of a contract made from an MCP tool (docs/design.md §2, `source`). */
export interface McpToolSource {
  type: 'mcp_adapter';
  /** The `mcp_sources[].name` of the configuration. */
  mcp_server: string;
  mcp_tool: string;
  namespace: string;
  adapter_version: string;
  title?: string;
  annotations?: JsonObject;
  outputSchema?: JsonObject;
  execution?: JsonObject;
}

/** Provenance of a contract made from an MCP prompt (docs/design.md §6). */
export interface McpPromptSource {
  type: 'mcp_adapter';
  mcp_server: string;
  mcp_prompt: string;
  namespace: string;
  adapter_version: string;
  title?: string;
}

/** Provenance of a contract made from an MCP resource template (docs/protocol.md §10.11). */
export interface McpResourceTemplateSource {
  type: 'mcp_adapter';
  mcp_server: string;
  mcp_resource_template: string;
  /** The template as the server listed it: a read expands it with the payload's values. */
  uri_template: string;
  namespace: string;
  adapter_version: string;
  title?: string;
  mimeType?: string;
}

/**
 * What became of the grammar: compiled exactly (it accepts exactly the payloads the schema
 * accepts), compiled inexactly (`approximate`: the compiler narrowed — or, if so configured,
 * widened — some keywords; `warnings` names each one), failed (reason; the contract is still
 * published, without a grammar), or not compiled (no compiler was wired).
 */
export type GrammarStatus =
  | { state: 'exact'; warnings: string[] }
  | { state: 'approximate'; warnings: string[] }
  | { state: 'failed'; reason: string }
  | { state: 'not_compiled' };

/** An XProtocol schema contract. Objects built here have exactly this key order. */
export interface SchemaContract {
  kind: string;
  /** Semantic version (Appendix B); `1.0.0` until a registry assigns one from history. */
  version: string;
  description: string;
  title?: string;
  /** Semantic annotations (docs/design.md §7): from the annotator seam, overrides merged on top. */
  semantic?: JsonObject;
  source: McpToolSource | McpPromptSource | McpResourceTemplateSource;
  /** The tool's `inputSchema`, copied as it is. */
  payload: JsonObject;
  response: { kind: string; payload: JsonObject };
  error_response: { kind: 'xp.error'; payload: JsonObject };
  auth: { required_capability: string };
  /** GBNF grammar of `payload`, or null when there is none (see `gbnf_status`). */
  gbnf_grammar: string | null;
  gbnf_status: GrammarStatus;
}

/** The least a contract from a remote XProtocol endpoint must have to become an MCP tool (docs/design.md §3). */
export interface ContractLike {
  kind: string;
  description?: string;
  title?: string;
  payload: JsonSchema;
  source?: { namespace?: string; title?: string; annotations?: JsonObject; outputSchema?: JsonObject };
}
