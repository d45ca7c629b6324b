/**
 * Direction 2: the MCP face. Each configured XProtocol endpoint's catalog becomes MCP tools
 * (seed §4.2 with DESIGN.md's naming rule: namespace stripped, sanitized, prefixed, long or taken
 * names hashed, every name persisted so a refresh never renames a tool); a `tools/call` is sealed,
 * sent through the relays and answered with the endpoint's result.
 *
 * Errors follow DESIGN.md's channel rule: arguments that do not match the schema, and an endpoint's
 * `SCHEMA_VIOLATION`, come back as a tool result with `isError: true` (the model can correct
 * itself); every other XProtocol error is a JSON-RPC error with the code of seed §5.3 and the
 * XProtocol code in `error.data.xp_code`.
 * @module
 */
import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
} from '@modelcontextprotocol/server';
import type { PublicIdentity } from '@xprotocol/crypto';
import {
  assignMcpToolNames,
  type ContractLike,
  contractToMcpTool,
  type JsonObject,
  type McpToolDefinition,
  xpError,
  xpErrorToMcp,
} from '@xprotocol/translate';
import { compileArgumentValidator } from './argument-validator.js';
import type { ArgumentCheck } from './endpoint-catalog.js';
import { type BridgeLogger, silentLogger } from './logger.js';
import type { StateDatabase } from './state-database.js';
import type { XpCaller } from './xp-caller.js';

/** One `xprotocol_sources` entry, resolved to a key. */
export interface XpToolSource {
  name: string;
  /** The endpoint's identity key (`ed25519:…`). */
  key: string;
  /** How the provenance note names the endpoint (`xp://host` or the key). */
  label: string;
  /** `mcp_tool_prefix`. */
  prefix: string;
  /** `schema_filter`: kinds to expose; empty exposes all. */
  schemaFilter: readonly string[];
}

/** Options of {@link McpFace}. */
export interface McpFaceOptions {
  caller: XpCaller;
  state: StateDatabase;
  sources: readonly XpToolSource[];
  /** Timeout of one `tools/call` round trip, in ms. */
  callTimeoutMs: number;
  /** How long a catalog fetch (announce + pages) may take, in ms. Default 10000. */
  catalogTimeoutMs?: number;
  /** SHA-256 for hashed tool names. */
  sha256: (data: Uint8Array) => Uint8Array;
  serverInfo: { name: string; version: string };
  /** Cross-tool guidance for `initialize` (its first 512 characters should stand alone). */
  instructions?: string;
  logger?: BridgeLogger;
}

interface FaceTool {
  definition: McpToolDefinition;
  source: XpToolSource;
  kind: string;
  validate: (args: unknown) => ArgumentCheck;
}

interface SourceState {
  keys: PublicIdentity | undefined;
  tools: FaceTool[];
  error: string | undefined;
}

/** An MCP server whose tools are XProtocol endpoints' schemas. */
export class McpFace {
  readonly server: Server;
  readonly #o: McpFaceOptions;
  readonly #logger: BridgeLogger;
  readonly #sources = new Map<string, SourceState>();
  #tools = new Map<string, FaceTool>();
  #firstRefresh: Promise<void> | undefined;
  #listed = false;

  constructor(options: McpFaceOptions) {
    this.#o = options;
    this.#logger = options.logger ?? silentLogger;
    this.server = new Server(options.serverInfo, {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    });
    this.server.setRequestHandler('tools/list', async () => {
      await this.ready();
      this.#listed = true;
      // Definitions come from contractToMcpTool: inputSchema is always an object schema.
      return { tools: [...this.#tools.values()].map((tool) => tool.definition) } as ListToolsResult;
    });
    this.server.setRequestHandler('tools/call', async (request) => {
      await this.ready();
      // Results cross as the endpoint sent them; the SDK checks their shape on the way out.
      return (await this.#call(request.params.name, request.params.arguments ?? {})) as CallToolResult;
    });
  }

  /** Resolves once every source's catalog was fetched once (or failed); starts the fetch if needed. */
  ready(): Promise<void> {
    this.#firstRefresh ??= this.refresh();
    return this.#firstRefresh;
  }

  /** The tools currently listed. */
  tools(): McpToolDefinition[] {
    return [...this.#tools.values()].map((tool) => tool.definition);
  }

  /** Per-source status: tool count and the last error. */
  status(): { name: string; tools: number; error: string | undefined }[] {
    return this.#o.sources.map((source) => {
      const state = this.#sources.get(source.name);
      return { name: source.name, tools: state?.tools.length ?? 0, error: state?.error };
    });
  }

  /**
   * Fetches every source's catalog again and updates the tool list; sends `tools/list_changed`
   * when it changed after a client listed it. A source that fails keeps its previous tools.
   */
  async refresh(): Promise<void> {
    const timeout = this.#o.catalogTimeoutMs ?? 10_000;
    await Promise.all(
      this.#o.sources.map(async (source) => {
        const state = this.#sources.get(source.name) ?? { keys: undefined, tools: [], error: undefined };
        this.#sources.set(source.name, state);
        try {
          state.keys ??= (await this.#o.caller.resolve(source.key, timeout)).keys;
          const contracts = await this.#o.caller.catalog(source.key, timeout);
          state.tools = this.#toolsOf(source, contracts as unknown as ContractLike[]);
          state.error = undefined;
        } catch (error) {
          state.error = (error as Error).message;
          this.#logger.warn(
            { source: source.name, error: state.error },
            'cannot fetch the catalog of an XProtocol source',
          );
        }
      }),
    );
    const before = JSON.stringify([...this.#tools.keys()].sort());
    const next = new Map<string, FaceTool>();
    for (const source of this.#o.sources) {
      for (const tool of this.#sources.get(source.name)?.tools ?? []) next.set(tool.definition.name, tool);
    }
    this.#tools = new Map([...next.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (this.#listed && JSON.stringify([...this.#tools.keys()].sort()) !== before) {
      await this.server.sendToolListChanged();
    }
  }

  #toolsOf(source: XpToolSource, contracts: ContractLike[]): FaceTool[] {
    const wanted =
      source.schemaFilter.length === 0
        ? contracts
        : contracts.filter((c) => source.schemaFilter.includes(c.kind));
    const taken = new Set<string>();
    for (const [name, tool] of this.#tools) if (tool.source.name !== source.name) taken.add(name);
    const { names, refused } = assignMcpToolNames(wanted, {
      prefix: source.prefix,
      endpointKey: source.key,
      sha256: this.#o.sha256,
      persisted: this.#o.state.toolNames().get(source.key),
      taken,
    });
    for (const { kind, reason } of refused)
      this.#logger.warn({ source: source.name, kind }, `not exposed: ${reason}`);
    const tools: FaceTool[] = [];
    for (const contract of wanted) {
      const name = names.get(contract.kind);
      if (name === undefined) continue;
      const converted = contractToMcpTool(contract, { name, endpoint: source.label });
      if (!converted.ok) {
        this.#logger.warn({ source: source.name, kind: contract.kind }, `not exposed: ${converted.reason}`);
        continue;
      }
      this.#o.state.saveToolName(source.key, contract.kind, name);
      tools.push({
        definition: converted.tool,
        source,
        kind: contract.kind,
        validate: compileArgumentValidator(contract.payload),
      });
    }
    return tools;
  }

  async #call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const tool = this.#tools.get(name);
    if (!tool) throw new ProtocolError(-32602, `Unknown tool: ${name}`);
    const check = tool.validate(args);
    if (!check.ok) {
      const face = xpErrorToMcp(
        xpError('SCHEMA_VIOLATION', check.message, {
          details: { errors: check.errors } as unknown as JsonObject,
        }),
      );
      if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
    }
    const keys = this.#sources.get(tool.source.name)?.keys;
    if (!keys) {
      throw new ProtocolError(-32603, `XProtocol endpoint unavailable: ${tool.source.name}`, {
        xp_code: 'ENDPOINT_UNAVAILABLE',
      });
    }
    const outcome = await this.#o.caller.call({
      to: keys,
      kind: tool.kind,
      payload: args,
      timeoutMs: this.#o.callTimeoutMs,
    });
    if (outcome.ok) return _asCallToolResult(outcome.payload);
    const face = xpErrorToMcp(outcome.error);
    if (face.channel === 'tool_result') return face.result as unknown as Record<string, unknown>;
    throw new ProtocolError(face.error.code, face.error.message, face.error.data);
  }
}

/** A native endpoint may answer with any JSON: wrap what is not a `CallToolResult` honestly. */
function _asCallToolResult(payload: unknown): Record<string, unknown> {
  if (
    payload !== null &&
    typeof payload === 'object' &&
    Array.isArray((payload as { content?: unknown }).content)
  ) {
    return payload as Record<string, unknown>;
  }
  const structured =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? { structuredContent: payload }
      : {};
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], ...structured };
}
