/**
 * The catalog of a native endpoint: its tools translated into schema contracts by the same
 * translation as an MCP server's tools (kinds, semantic annotations, quality score, inferred
 * capability, GBNF grammar), kept in a registry whose versions live in the state database, and the
 * `EndpointCatalog` view the endpoint's pipeline reads (served kinds, catalog pages,
 * `xp.schema.describe`).
 * @module
 */
import {
  compileArgumentValidator,
  type EndpointCatalog,
  type EndpointTool,
  SchemaSearch,
  type StateDatabase,
} from '@xprotocol/mcp-bridge';
import { catalogPage, parseCatalogRequest, Registry, type VersionStore } from '@xprotocol/registry';
import { type SchemaCompiler, type SourceTranslation, translateSource } from '@xprotocol/translate';
import { type NativeTool, ToolDefinitionError } from './tool-definition.js';
import { ENDPOINT_VERSION } from './version.js';

/** Everything the translation of the tools refused or warned about, for the start's log. */
export type TranslationWarnings = SourceTranslation['warnings'];

/** The served catalog of one namespace of in-process tools. */
export class NativeCatalog implements EndpointCatalog {
  readonly registry: Registry;
  readonly warnings: TranslationWarnings;
  readonly #source: string;
  readonly #search = new SchemaSearch();
  readonly #validators = new Map<string, EndpointTool['validate']>();

  private constructor(registry: Registry, source: string, warnings: TranslationWarnings) {
    this.registry = registry;
    this.#source = source;
    this.warnings = warnings;
  }

  /**
   * Translates `tools` under `namespace` and publishes them in a registry (versions kept in
   * `state`). Throws {@link ToolDefinitionError} when the translation refuses a tool (a name
   * that cannot be a kind, a description below the quality floor …): every tool is served or the
   * start fails.
   */
  static async create(options: {
    source: string;
    namespace: string;
    tools: readonly NativeTool[];
    state: StateDatabase;
    compiler: SchemaCompiler;
  }): Promise<NativeCatalog> {
    const { source, namespace, tools, compiler } = options;
    const translation = translateSource(
      {
        name: source,
        namespace,
        tools: tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
          ...(tool.annotations !== undefined && { annotations: tool.annotations }),
        })),
        adapterVersion: ENDPOINT_VERSION,
      },
      { compiler },
    );
    if (translation.refused.length > 0)
      throw new ToolDefinitionError(translation.refused.map((r) => `tool "${r.tool}": ${r.reason}`));
    const registry = new Registry({ versionStore: _versionStore(options.state) });
    await registry.refreshSource(source, translation.contracts);
    const catalog = new NativeCatalog(registry, source, translation.warnings);
    catalog.#search.sync(
      registry.contracts().map((contract) => ({
        document: {
          id: contract.kind,
          name: registry.origin(contract.kind)?.tool ?? contract.kind,
          description: contract.description,
          inputSchema: contract.payload,
          namespace,
          ...(contract.semantic !== undefined && { semantic: contract.semantic }),
        },
        fingerprint: `${contract.kind}@${contract.version}`,
      })),
    );
    for (const contract of registry.contracts())
      catalog.#validators.set(contract.kind, compileArgumentValidator(contract.payload, compiler));
    return catalog;
  }

  /** Each served kind with the capability a caller needs for it (for grants and the start's log). */
  capabilities(): { kind: string; capability: string }[] {
    return this.registry.contracts().map((c) => ({ kind: c.kind, capability: c.auth.required_capability }));
  }

  /** {@link EndpointCatalog.tool}: the served tool for `kind`. */
  tool(kind: string): EndpointTool | undefined {
    const contract = this.registry.get(kind);
    const origin = this.registry.origin(kind);
    const validate = this.#validators.get(kind);
    if (!contract || origin?.tool === undefined || !validate) return undefined;
    return { contract, source: this.#source, upstreamName: origin.tool, validate };
  }

  /** {@link EndpointCatalog.page}: the registry's pages (sorted by kind, byte-bounded). */
  page(request: unknown) {
    return catalogPage(this.registry, parseCatalogRequest(request));
  }

  /** {@link EndpointCatalog.describe}: ranked matches for an `xp.schema.describe` query. */
  describe(query: unknown) {
    return this.#search.describe(query);
  }
}

/** The registry's schema versions, kept in the state database (as the adapter keeps them). */
function _versionStore(state: StateDatabase): VersionStore {
  return {
    get(kind) {
      const record = state.schemaVersion(kind);
      return record && { kind, version: record.version, contract: record.contractJson };
    },
    put(record) {
      state.saveSchemaVersion(record.kind, record.version, record.contract);
    },
  };
}
