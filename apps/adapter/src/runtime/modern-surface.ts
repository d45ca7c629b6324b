/**
 * One source's 2026-07-28 tools beside its catalog (docs/architecture.md, "Two MCP revisions"). A
 * Streamable HTTP server whose source keeps the default revision (2025-11-25) is asked, by a
 * session of its own in `auto`, whether it speaks 2026-07-28; when it does, its tool list in that
 * revision is read at each refresh of the source and made into contracts by the source's own
 * settings: what the gateway's 2026-07-28 clients are offered, each tool in its 2026-07-28
 * definition. Every definition is pinned like any other (changes held for `approve`, flagged new
 * tools quarantined); a tool the server lists in both revisions is pinned beside the catalog's
 * definition as `<tool>@2026-07-28`, so that neither revision's definition reads as a change of the
 * other's and a change of either is held on its own. A server that answers in
 * 2025-11-25, or not at all, is not asked again during the run (it was reached in 2025-11-25 a
 * moment before).
 * @module
 */
import {
  applyToolPins,
  type BridgeLogger,
  type ToolPinStore,
  UpstreamSession,
  type UpstreamTransport,
} from '@xprotocol/mcp-bridge';
import type { ContractLike } from '@xprotocol/translate';
import type { McpSourceConfig } from '../config/index.js';
import { ADAPTER_VERSION } from '../version.js';
import { _pinnedArgumentsRefusal } from './pinned-arguments.js';
import { translateConfiguredSource } from './source-translation.js';

/** How the 2026-07-28 definition of a tool listed in both revisions is named in the pin store. */
export const MODERN_PIN_SUFFIX = '@2026-07-28';

/** Options of {@link ModernSurface}. */
export interface ModernSurfaceOptions {
  source: McpSourceConfig;
  /** How the source's server is reached (its configured transport). */
  transport: UpstreamTransport;
  logger: BridgeLogger;
  /** Where tool definitions are pinned; nothing is pinned without it. */
  pins?: ToolPinStore | undefined;
  /** The server said its 2026-07-28 tool list changed. */
  onToolsChanged: () => void;
}

/** The 2026-07-28 tools of one source, when its server offers them. */
export class ModernSurface {
  readonly #o: ModernSurfaceOptions;
  #session: UpstreamSession | undefined;
  /** The server answered in 2025-11-25 (or the source names its revision): nothing to read. */
  #absent: boolean;
  #contracts: readonly ContractLike[] | undefined;
  /** Each 2026-07-28 tool as served, by its upstream name. */
  #listed = new Map<string, Record<string, unknown>>();
  /** 2026-07-28 definitions whose change waits for approval (their pinned definition is served). */
  #held = new Set<string>();
  /** Quarantines already logged (tool, hash): a refresh does not repeat the warning. */
  readonly #logged = new Set<string>();

  constructor(options: ModernSurfaceOptions) {
    this.#o = options;
    this.#absent = options.transport.type !== 'streamable_http' || options.transport.revision !== undefined;
  }

  /** The contracts of the tools 2026-07-28 clients are offered; undefined when they get the catalog's. */
  get contracts(): readonly ContractLike[] | undefined {
    return this.#contracts;
  }

  /** The 2026-07-28 tool `tool` as its server listed it (the pinned definition while a change waits). */
  listedTool(tool: string): Record<string, unknown> | undefined {
    return this.#listed.get(tool);
  }

  /** Why `args` are refused for the 2026-07-28 definition of `tool` beyond its schema (a held change). */
  checkArguments(tool: string, args: Record<string, unknown>): string | undefined {
    if (!this.#held.has(tool)) return undefined;
    return _pinnedArgumentsRefusal(this.#o.source.name, tool, this.#listed.get(tool), args);
  }

  /**
   * Reads the server's 2026-07-28 tools again, `catalog` being the tools the catalog serves (by
   * name); whether what 2026-07-28 clients are offered changed. A failure keeps the last reading.
   */
  async read(catalog: ReadonlyMap<string, Record<string, unknown>>): Promise<boolean> {
    if (this.#absent) return false;
    let session: UpstreamSession | undefined;
    try {
      session = await this.#open();
    } catch (error) {
      // Reached a moment ago in 2025-11-25, but not in 2026-07-28: not asked again this run.
      this.#o.logger.info(
        { source: this.#o.source.name, error: (error as Error).message },
        `MCP source "${this.#o.source.name}" does not answer as a 2026-07-28 server; its 2026-07-28 clients get its 2025-11-25 tools`,
      );
      this.#absent = true;
      await this.#session?.close({ graceMs: 0 });
      this.#session = undefined;
      return this.#settle(undefined);
    }
    if (!session) return this.#settle(undefined);
    try {
      const listed = (await session.listTools()) as unknown as Record<string, unknown>[];
      return this.#settle(this.#served(listed, catalog));
    } catch (error) {
      this.#o.logger.warn(
        { source: this.#o.source.name, error: (error as Error).message },
        `MCP source "${this.#o.source.name}": its 2026-07-28 tools could not be read; its 2026-07-28 clients keep the tools read last`,
      );
      return false;
    }
  }

  /** Ends the session with the server. */
  async close(graceMs: number): Promise<void> {
    this.#absent = true;
    await this.#session?.close({ graceMs });
  }

  /** The session in 2026-07-28; undefined once the server answered in 2025-11-25 (then closed). */
  async #open(): Promise<UpstreamSession | undefined> {
    this.#session ??= new UpstreamSession({
      name: this.#o.source.name,
      transport: { ...this.#o.transport, revision: 'auto' },
      clientInfo: { name: 'xprotocol-mcp-adapter', version: ADAPTER_VERSION },
      logger: this.#o.logger,
      onToolsChanged: this.#o.onToolsChanged,
    });
    await this.#session.connect();
    if (this.#session.transport.revision === '2026-07-28') return this.#session;
    this.#absent = true;
    await this.#session.close({ graceMs: 0 });
    this.#session = undefined;
    return undefined;
  }

  /**
   * The tools to serve of a 2026-07-28 listing, each pinned; a tool also in the catalog under
   * `<tool>@2026-07-28`, so that a change of either revision's definition is held on its own.
   */
  #served(
    listed: readonly Record<string, unknown>[],
    catalog: ReadonlyMap<string, Record<string, unknown>>,
  ): Record<string, unknown>[] {
    const { source, pins } = this.#o;
    if (!pins) return [...listed];
    const pinName = (name: string) => (catalog.has(name) ? `${name}${MODERN_PIN_SUFFIX}` : name);
    const unpin = (name: string) => {
      const real = name.endsWith(MODERN_PIN_SUFFIX) ? name.slice(0, -MODERN_PIN_SUFFIX.length) : name;
      return catalog.has(real) ? real : name;
    };
    const pinned = applyToolPins({
      store: pins,
      source: source.name,
      tools: listed.map((tool) => ({ ...tool, name: pinName(tool.name as string) })),
      quarantineFlagged: source.descriptionLint === 'quarantine',
    });
    this.#held = new Set(pinned.quarantined.filter((q) => q.state === 'changed').map((q) => unpin(q.tool)));
    for (const q of pinned.quarantined) {
      const key = `${q.tool}\0${q.pendingHash}`;
      if (this.#logged.has(key)) continue;
      this.#logged.add(key);
      this.#o.logger.warn(
        { source: source.name, tool: q.tool, state: q.state },
        `tool quarantined: ${q.reason}`,
      );
    }
    return pinned.tools.map((tool) => ({ ...tool, name: unpin(tool.name as string) }));
  }

  /** Makes `tools` (or nothing) what 2026-07-28 clients are offered; whether that changed. */
  #settle(tools: Record<string, unknown>[] | undefined): boolean {
    const contracts =
      tools &&
      translateConfiguredSource(this.#o.source, tools).contracts.filter((c) => 'mcp_tool' in c.source);
    const changed = JSON.stringify(contracts) !== JSON.stringify(this.#contracts);
    this.#contracts = contracts;
    this.#listed = new Map((tools ?? []).map((tool) => [tool.name as string, tool]));
    return changed;
  }
}
