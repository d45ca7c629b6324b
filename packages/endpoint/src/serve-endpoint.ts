/**
 * `serveEndpoint`: a native XProtocol endpoint in one call. It is a facade over the adapter's own
 * parts — the key file, the state database, the relay pool with its durable outbox, the announce
 * schedule and `XpEndpoint`, the pipeline that verifies, checks grants and rate limits, dedupes,
 * runs at most once, answers and encrypts (docs/protocol.md §4) — with the tools taken from
 * in-process handlers instead of an MCP server. Nothing of that pipeline is written again here.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Identity, PublicIdentity, XpEvent } from '@xprotocol/crypto';
import { ensureKeyFile, nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import {
  AccessPolicy,
  Announcer,
  type BridgeLogger,
  type InboundOutcome,
  StateDatabase,
  silentLogger,
  XpEndpoint,
} from '@xprotocol/mcp-bridge';
import { buildAnnouncePayload } from '@xprotocol/registry';
import { RelayPool } from '@xprotocol/relay-client';
import { assertNamespace, SchemaCompiler } from '@xprotocol/translate';
import { HandlerProvider } from './handler-provider.js';
import { NativeCatalog } from './native-catalog.js';
import { _withJsonSchemas } from './standard-schema.js';
import { type NativeTool, ToolDefinitionError, toolDefinitionProblems } from './tool-definition.js';
import { ENDPOINT_VERSION } from './version.js';

/** Who may call the endpoint: deny by default, as the adapter's `access` (docs/config.md). */
export interface EndpointAccess {
  /** `deny` (the default) serves only the grants; `allow` serves every key. */
  default?: 'deny' | 'allow';
  /** Capabilities per caller key (`ed25519:…`), e.g. `<namespace>.*` or `<namespace>.read`. */
  grants?: readonly { key: string; capabilities: readonly string[] }[];
  /** Keys whose delegation chains are honoured (docs/protocol.md §11.7). */
  trustedIssuers?: readonly string[];
}

/** Options of {@link serveEndpoint}. */
export interface ServeEndpointOptions {
  /** The endpoint's key file (created, mode 0600, when missing), or an identity already loaded. */
  key: string | Identity;
  /** The relays it listens and answers on (`ws://` or `wss://`); at least one. */
  relays: readonly string[];
  /** The namespace of its kinds: a tool `get_note` is the kind `<namespace>.get_note`. */
  namespace: string;
  /** The tools it serves; each is checked before anything starts. */
  tools: readonly NativeTool[];
  /** Who may call it. Default: nobody (every call is refused `AUTHORIZATION_INSUFFICIENT`). */
  access?: EndpointAccess;
  /** The state database (dedupe, call journal, outbox). Default: the key file's path + `.state.db`. */
  state?: string;
  /** The name in its announce. Default: the namespace. */
  displayName?: string;
  /** Calls one key may make per minute. Default 600. */
  requestsPerMinute?: number;
  /** Longest a handler may run, in ms (a caller's earlier expiration wins). Default 30000. */
  callTimeoutMs?: number;
  /** Where it logs (pino-shaped). Default: nothing is logged. */
  logger?: BridgeLogger;
  /** Hears what became of each inbound event (for counts and tests). */
  onOutcome?: (outcome: InboundOutcome, request: XpEvent | undefined) => void;
}

/** A running native endpoint. */
export interface RunningEndpoint {
  /** Its public keys: callers address `keys.ed25519`. */
  readonly keys: PublicIdentity;
  /** Each kind it serves and the capability a caller needs for it. */
  readonly kinds: readonly { kind: string; capability: string }[];
  /** Stops listening, answers the calls in flight, then closes the relays and the state database. */
  stop(): Promise<void>;
}

/**
 * Serves `tools` as a native XProtocol endpoint: it loads (or creates) its key, opens its state
 * database and relays, answers every request addressed to it by the adapter's pipeline, and
 * announces itself with its catalog (contracts with their GBNF grammars). Throws before anything
 * starts on tools that cannot be served ({@link ToolDefinitionError}: a duplicate name, a schema
 * that is not valid JSON Schema, a tool the translation refuses) and on bad options.
 * @example
 * const endpoint = await serveEndpoint({
 *   key: './notes.key', relays: ['ws://127.0.0.1:8765'], namespace: 'acme.notes',
 *   access: { grants: [{ key: 'ed25519:…', capabilities: ['acme.notes.*'] }] },
 *   tools: [{ name: 'get_note', description: 'Get a note by its title.',
 *     inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
 *     handler: async ({ title }) => ({ title, text: notes.get(String(title)) ?? '' }) }],
 * });
 */
export async function serveEndpoint(options: ServeEndpointOptions): Promise<RunningEndpoint> {
  _checkOptions(options);
  const logger = options.logger ?? silentLogger;
  const compiler = new SchemaCompiler();
  // Schemas of a schema library become JSON Schema first (standard-schema.ts).
  const { tools, problems: conversions } = _withJsonSchemas(options.tools);
  const problems = [...conversions, ...toolDefinitionProblems(tools, compiler)];
  if (problems.length > 0) throw new ToolDefinitionError(problems);
  const identity = await _identity(options.key);
  const state = new StateDatabase(_statePath(options));
  const stops: (() => Promise<void> | void)[] = [() => state.close()];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const source = options.namespace;
    const catalog = await NativeCatalog.create({
      source,
      namespace: source,
      tools,
      state,
      compiler,
    });
    for (const w of catalog.warnings) logger.warn({ tool: w.tool, code: w.code }, w.message);
    const pool = await RelayPool.open({
      urls: [...options.relays],
      outbox: state.outbox(),
      signatures: nodeSignatures,
      onNotice: (relay, message) => logger.warn({ relay }, `relay notice: ${message}`),
      onConnectionError: (relay, reason, retryInMs) =>
        logger.warn({ relay, retryInMs }, `cannot reach relay ${relay}: ${reason}; retrying`),
    });
    stops.push(() => pool.close());
    const endpoint = new XpEndpoint({
      identity,
      pool,
      state,
      catalog,
      upstreams: new Map([[source, new HandlerProvider(tools, compiler, logger)]]),
      mcpSources: [{ name: source, namespace: source }],
      access: new AccessPolicy({ default: 'deny', grants: [], ...options.access }),
      requestsPerMinute: new Map([[source, options.requestsPerMinute ?? 600]]),
      ...(options.callTimeoutMs !== undefined && { callTimeoutMs: options.callTimeoutMs }),
      logger,
      ...(options.onOutcome && { onOutcome: options.onOutcome }),
      signatures: nodeSignatures,
      cipher: nodeCipher,
    });
    await endpoint.start();
    stops.push(() => endpoint.stop());
    const announcer = new Announcer({
      pool,
      identity,
      payload: () =>
        buildAnnouncePayload(
          {
            display_name: options.displayName ?? options.namespace,
            adapter_version: ENDPOINT_VERSION,
            x25519: identity.keys.x25519,
            relays: options.relays,
            // A native endpoint wraps no MCP server and calls no other endpoint: both lists are
            // empty, and its own tools are disclosed, counted and flagged as a served source.
            mcp_sources: [],
            xprotocol_sources: [],
            served_sources: [{ name: source, transport: 'native', namespace: source }],
          },
          catalog.registry,
        ),
      signatures: nodeSignatures,
      logger,
    });
    await announcer.start();
    stops.push(() => announcer.stop());
    const kinds = catalog.capabilities();
    logger.info(
      { key: identity.keys.ed25519, kinds },
      `serving ${kinds.length} tools as ${options.namespace}`,
    );
    let stopping: Promise<void> | undefined;
    return {
      keys: identity.keys,
      kinds,
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Refuses options that cannot work, saying what was expected. */
function _checkOptions(options: ServeEndpointOptions): void {
  if (!Array.isArray(options.relays) || options.relays.length === 0)
    throw new TypeError('relays: expected at least one ws:// or wss:// relay URL');
  for (const url of options.relays) {
    if (typeof url !== 'string' || !/^wss?:\/\//.test(url))
      throw new TypeError(`relays: expected ws:// or wss:// URLs, got ${JSON.stringify(url)}`);
  }
  try {
    assertNamespace(options.namespace);
  } catch (error) {
    throw new TypeError(`namespace: ${(error as Error).message}`);
  }
  if (typeof options.key !== 'string' && typeof options.key?.keys?.ed25519 !== 'string')
    throw new TypeError('key: expected the path of a key file, or an identity');
  if (typeof options.key !== 'string' && options.state === undefined)
    throw new TypeError('state: expected the path of the state database when key is an identity');
}

/** The identity behind `key`: the key file read, or created (its folder too) when missing. */
async function _identity(key: string | Identity): Promise<Identity> {
  if (typeof key !== 'string') return key;
  mkdirSync(dirname(key), { recursive: true, mode: 0o700 });
  const { identity } = await ensureKeyFile(key, { signatures: nodeSignatures, cipher: nodeCipher });
  return identity;
}

/** Where the state database lives. */
function _statePath(options: ServeEndpointOptions): string {
  return options.state ?? `${options.key as string}.state.db`;
}
