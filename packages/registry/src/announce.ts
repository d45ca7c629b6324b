/**
 * The announce, in one place (docs/protocol.md §10.3): the `xp.endpoint.announce` payload type,
 * building it from the configuration and the live registry, its canonical serialization (RFC 8785,
 * `@xprotocol/crypto`'s), signing it into an event, and reading an announce event back (verified,
 * every field checked). Who the adapter is, how to reach it, what it wraps and which schemas
 * describe themselves too vaguely to be found. Plaintext and signed, so it never carries a
 * credential: a source URL loses its user name, password, query string and fragment (tokens live
 * there), and a stdio source has no URL at all.
 * @module
 */
import {
  canonicalJson,
  createEventTemplate,
  type Identity,
  MAX_CHAIN_LINKS,
  type SignatureBackend,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import {
  descriptionQualityScore,
  type LowQualitySchema,
  lowQualitySchemas,
  type QualityScore,
  type QualityThresholds,
} from '@xprotocol/semantic';
import { isContractKind, type Refusal, type SchemaContract } from '@xprotocol/translate';
import { ANNOUNCE_KIND } from '@xprotocol/wire';
import { RegistryError } from './errors.js';
import type { Registry } from './registry.js';

/** One `mcp_sources` entry as the announce needs it (from the configuration). */
export interface AnnounceMcpSource {
  readonly name: string;
  readonly transport: 'stdio' | 'sse' | 'streamable_http';
  /** For `sse` / `streamable_http`; disclosed without credentials. */
  readonly url?: string | undefined;
  readonly namespace: string;
  /** Per-source thresholds (docs/design.md §7; defaults 0.40 / 0.20). */
  readonly description_quality_threshold?: number | undefined;
  readonly description_quality_floor?: number | undefined;
  /**
   * The source's refusals from `translateSource`: those refused for description quality
   * (`LOW_QUALITY`) are listed in `low_quality_schemas` too, so the announce says why they are missing.
   */
  readonly refused?: readonly Refusal[] | undefined;
  /**
   * Tools flagged by description linting or held back by tool pinning (docs/security.md, "Tool
   * pinning"), by kind, with the issue: listed in `low_quality_schemas` with the tool's score
   * (0 when the kind is not published).
   */
  readonly flagged?: readonly { readonly kind: string; readonly issue: string }[] | undefined;
}

/**
 * A source whose contracts the endpoint serves without an MCP server (docs/protocol.md §10.3,
 * `served_sources`): `native` for tools whose handlers run in the endpoint's own process (a native
 * endpoint), `openapi` for an HTTP service described by an OpenAPI document. Counted and flagged as
 * an MCP source is; `url` (an `openapi` service's base URL) is disclosed without credentials.
 */
export interface AnnounceServedSource extends Omit<AnnounceMcpSource, 'transport' | 'url'> {
  readonly transport: 'native' | 'openapi';
  readonly url?: string | undefined;
}

/** One `xprotocol_sources` entry as the announce needs it. */
export interface AnnounceXpSource {
  readonly name: string;
  /** `xp://host` when configured that way. */
  readonly endpoint?: string | undefined;
  /** `ed25519:…` when configured by key. */
  readonly key?: string | undefined;
  /** How many MCP tools this endpoint's catalog became. */
  readonly tool_count: number;
}

/** Input of {@link buildAnnouncePayload}. */
export interface AnnounceInput {
  readonly display_name: string;
  readonly adapter_version: string;
  /** The adapter's encryption key, `x25519:<64 hex>`. */
  readonly x25519: string;
  readonly relays: readonly string[];
  readonly mcp_sources: readonly AnnounceMcpSource[];
  readonly xprotocol_sources: readonly AnnounceXpSource[];
  /** What the endpoint serves beside MCP servers; none or empty: no `served_sources` field. */
  readonly served_sources?: readonly AnnounceServedSource[] | undefined;
  /**
   * The adapter's delegation chain (docs/protocol.md §11.3), the chain file's array as it is, root
   * first; disclosed as `delegation_chain` so a caller can check who vouches for the key. Absent:
   * no field, and the payload is exactly what it was without chains.
   */
  readonly delegation_chain?: readonly unknown[] | undefined;
  /**
   * The rotation (docs/protocol.md §11.8) that names this endpoint's key as another key's
   * successor, as its file holds it; disclosed as `rotated_from`. Absent: no field.
   */
  readonly rotated_from?: unknown;
}

/** Options: the scoring seam (default: `@xprotocol/semantic`'s `descriptionQualityScore`). */
export interface AnnounceOptions {
  readonly score?: ((contract: SchemaContract) => QualityScore) | undefined;
}

/** The announce payload. Objects built here have exactly this key order. */
export interface AnnouncePayload {
  display_name: string;
  adapter_version: string;
  x25519: string;
  relays: string[];
  mcp_sources: {
    name: string;
    transport: string;
    url?: string;
    namespace: string;
    tool_count: number;
    prompt_count: number;
  }[];
  xprotocol_sources: { name: string; endpoint?: string; key?: string; tool_count: number }[];
  /** The sources served without an MCP server, when there are any (docs/protocol.md §10.3). */
  served_sources?: {
    name: string;
    transport: string;
    url?: string;
    namespace: string;
    tool_count: number;
    prompt_count: number;
  }[];
  counts: {
    mcp_sources: number;
    xprotocol_sources: number;
    schemas: number;
    tools: number;
    prompts: number;
    low_quality_schemas: number;
  };
  low_quality_schemas: LowQualitySchema[];
  /** The endpoint's delegation chain, root first, when it has one (docs/protocol.md §10.3). */
  delegation_chain?: unknown[];
  /** The rotation naming this key as a successor, when it has one (docs/protocol.md §11.8). */
  rotated_from?: Record<string, unknown>;
}

/** SemVer 2.0.0 (semver.org's regular expression). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** @internal True for an `adapter_version`: SemVer 2.0.0, at most 64 characters. */
export function _isAdapterVersion(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && SEMVER.test(value);
}

/** @internal What is wrong with a `display_name`: 1 to 256 characters (code points), not only white space. */
export function _displayNameProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '' && [...value].length <= 256) return undefined;
  return `display_name: expected 1 to 256 characters, not only white space, got ${JSON.stringify(value)}`;
}

/** The most links a disclosed chain may have (`MAX_CHAIN_LINKS` of docs/protocol.md §11.4). */
const MAX_DISCLOSED_LINKS = MAX_CHAIN_LINKS;

const X25519 = /^x25519:[0-9a-f]{64}$/;
const ED25519 = /^ed25519:[0-9a-f]{64}$/;

/**
 * Builds the announce payload from the configuration and the live registry.
 * @example
 * const payload = buildAnnouncePayload({ display_name: 'Acme', adapter_version: '0.1.0', x25519,
 *   relays: ['wss://relay.example'], mcp_sources: [{ name: 'filesystem', transport: 'stdio',
 *   namespace: 'com.acme.filesystem' }], xprotocol_sources: [] }, registry);
 */
export function buildAnnouncePayload(
  input: AnnounceInput,
  registry: Registry,
  options: AnnounceOptions = {},
): AnnouncePayload {
  _checkAdapterFields(input);
  const relays = _publicRelays(input.relays);
  const tally: _Tally = {
    score: options.score ?? _defaultScore,
    lowQuality: [],
    tools: 0,
    prompts: 0,
  };
  const mcp = input.mcp_sources.map((s, i) => _mcpSourceEntry(s, i, registry, tally));
  const xp = input.xprotocol_sources.map((s, i) => _xpSourceEntry(s, i));
  const served = (input.served_sources ?? []).map((s, i) => _servedSourceEntry(s, i, registry, tally));
  const lowQuality = tally.lowQuality;
  lowQuality.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return {
    display_name: input.display_name,
    adapter_version: input.adapter_version,
    x25519: input.x25519,
    relays,
    mcp_sources: mcp,
    xprotocol_sources: xp,
    ...(served.length > 0 && { served_sources: served }),
    counts: {
      mcp_sources: mcp.length,
      xprotocol_sources: xp.length,
      schemas: registry.size,
      tools: tally.tools,
      prompts: tally.prompts,
      low_quality_schemas: lowQuality.length,
    },
    low_quality_schemas: lowQuality,
    ...(input.delegation_chain !== undefined && {
      delegation_chain: _disclosedChain(input.delegation_chain),
    }),
    ...(input.rotated_from !== undefined && { rotated_from: _disclosedRotation(input.rotated_from) }),
  };
}

/** The rotation as it is disclosed: an object, copied; its signatures are the reader's to check. */
function _disclosedRotation(rotation: unknown): Record<string, unknown> {
  const problem = _rotationProblem(rotation);
  if (problem !== undefined) throw new RegistryError('INVALID_ANNOUNCE', problem);
  return structuredClone(rotation as Record<string, unknown>);
}

/** @internal What is wrong with a `rotated_from` value, or `undefined`. */
export function _rotationProblem(rotation: unknown): string | undefined {
  return _isRecord(rotation)
    ? undefined
    : `rotated_from: expected a rotation (a JSON object), got ${_aKindOf(rotation)}`;
}

/**
 * The chain as it is disclosed: 1 to 8 objects, copied. Whether it is a valid chain is the
 * verifier's question (docs/protocol.md §11.4); the adapter checked it when it started.
 */
function _disclosedChain(chain: readonly unknown[]): unknown[] {
  const problem = _chainProblem(chain);
  if (problem !== undefined) throw new RegistryError('INVALID_ANNOUNCE', problem);
  return structuredClone([...chain]);
}

/** @internal What is wrong with a `delegation_chain` value, or `undefined`: 1 to 8 delegation objects. */
export function _chainProblem(chain: unknown): string | undefined {
  const expected = `expected an array of 1 to ${MAX_DISCLOSED_LINKS} delegations, root first (a chain file as register writes it)`;
  if (!Array.isArray(chain)) return `delegation_chain: ${expected}, got ${_aKindOf(chain)}`;
  if (chain.length === 0) return `delegation_chain: ${expected}, got an empty array`;
  if (chain.length > MAX_DISCLOSED_LINKS)
    return `delegation_chain: ${expected}, got an array of ${chain.length}`;
  const at = chain.findIndex((link) => !_isRecord(link));
  return at === -1
    ? undefined
    : `delegation_chain[${at}]: expected a delegation (a JSON object), got ${_aKindOf(chain[at])}`;
}

/** What the MCP sources add up to while their entries are built. */
interface _Tally {
  readonly score: (contract: SchemaContract) => QualityScore;
  readonly lowQuality: LowQualitySchema[];
  tools: number;
  prompts: number;
}

/** Checks who the adapter says it is: its display name, version and encryption key. */
function _checkAdapterFields(input: AnnounceInput): void {
  if (_displayNameProblem(input.display_name) !== undefined) {
    throw new RegistryError('INVALID_ANNOUNCE', _displayNameProblem(input.display_name) as string);
  }
  if (!_isAdapterVersion(input.adapter_version)) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `adapter_version: expected a SemVer 2.0.0 version of at most 64 characters (e.g. "1.4.0"), got ${JSON.stringify(input.adapter_version)}`,
    );
  }
  if (typeof input.x25519 !== 'string' || !X25519.test(input.x25519)) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `x25519: expected "x25519:" followed by 64 lowercase hex digits, got ${JSON.stringify(input.x25519)}`,
    );
  }
}

/** The relay URLs as they may be disclosed; a URL that is not ws(s):// is an error. */
function _publicRelays(relays: readonly string[]): string[] {
  return relays.map((url, i) => {
    const clean = publicUrl(url, ['ws:', 'wss:']);
    if (clean === undefined)
      throw new RegistryError(
        'INVALID_ANNOUNCE',
        `relays[${i}]: expected a ws:// or wss:// URL, got ${JSON.stringify(url)}`,
      );
    return clean;
  });
}

/**
 * One `mcp_sources` entry: checked, counted from the registry (its tools and prompts added to the
 * tally, its low-quality schemas too), and its URL disclosed without credentials.
 */
function _mcpSourceEntry(
  s: AnnounceMcpSource,
  i: number,
  registry: Registry,
  tally: _Tally,
): AnnouncePayload['mcp_sources'][number] {
  _checkMcpSource(s, i);
  const contracts = registry.contractsOf(s.name);
  const toolCount = contracts.filter((c) => 'mcp_tool' in c.source).length;
  // Resource templates (docs/protocol.md §10.11) are neither tools nor prompts.
  const promptCount = contracts.filter((c) => 'mcp_prompt' in c.source).length;
  tally.tools += toolCount;
  tally.prompts += promptCount;
  tally.lowQuality.push(..._lowQualityOf(s, contracts, tally.score));
  if (s.transport !== 'stdio' && s.url !== undefined) {
    const url = publicUrl(s.url, ['http:', 'https:']);
    if (url === undefined)
      throw new RegistryError(
        'INVALID_ANNOUNCE',
        `mcp_sources[${i}].url: expected an http(s) URL, got a value that does not parse`,
      );
    return {
      name: s.name,
      transport: s.transport,
      url,
      namespace: s.namespace,
      tool_count: toolCount,
      prompt_count: promptCount,
    };
  }
  return {
    name: s.name,
    transport: s.transport,
    namespace: s.namespace,
    tool_count: toolCount,
    prompt_count: promptCount,
  };
}

/**
 * One `served_sources` entry: counted and flagged as an MCP source is (the counts' `tools` and
 * `prompts` may exceed the `mcp_sources` sums by exactly these), its URL disclosed without credentials.
 */
function _servedSourceEntry(
  s: AnnounceServedSource,
  i: number,
  registry: Registry,
  tally: _Tally,
): NonNullable<AnnouncePayload['served_sources']>[number] {
  if (s.transport !== 'native' && s.transport !== 'openapi') {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `served_sources[${i}].transport: expected "native" | "openapi", got ${JSON.stringify(s.transport)}`,
    );
  }
  const { transport, url, ...rest } = s;
  const entry = _mcpSourceEntry({ ...rest, transport: 'stdio' }, i, registry, tally);
  let disclosed: string | undefined;
  if (url !== undefined) {
    disclosed = publicUrl(url, ['http:', 'https:']);
    if (disclosed === undefined)
      throw new RegistryError(
        'INVALID_ANNOUNCE',
        `served_sources[${i}].url: expected an http(s) URL, got a value that does not parse`,
      );
  }
  return {
    name: entry.name,
    transport,
    ...(disclosed !== undefined && { url: disclosed }),
    namespace: entry.namespace,
    tool_count: entry.tool_count,
    prompt_count: entry.prompt_count,
  };
}

function _checkMcpSource(s: AnnounceMcpSource, i: number): void {
  if (!['stdio', 'sse', 'streamable_http'].includes(s.transport)) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `mcp_sources[${i}].transport: expected "stdio" | "sse" | "streamable_http", got ${JSON.stringify(s.transport)}`,
    );
  }
  if (!isContractKind(s.namespace)) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `mcp_sources[${i}].namespace: expected a namespace, got ${JSON.stringify(s.namespace)}`,
    );
  }
}

/**
 * The source's schemas that describe themselves too vaguely, in this order: those its scores put
 * below its thresholds, those flagged (linting, pinning), those refused for `LOW_QUALITY`.
 */
function _lowQualityOf(
  s: AnnounceMcpSource,
  contracts: readonly SchemaContract[],
  score: (contract: SchemaContract) => QualityScore,
): LowQualitySchema[] {
  const thresholds: QualityThresholds = {
    ...(s.description_quality_threshold !== undefined
      ? { description_quality_threshold: s.description_quality_threshold }
      : {}),
    ...(s.description_quality_floor !== undefined
      ? { description_quality_floor: s.description_quality_floor }
      : {}),
  };
  const out = [
    ...lowQualitySchemas(
      contracts.map((c) => ({ kind: c.kind, quality: score(c) })),
      thresholds,
    ),
  ];
  for (const f of s.flagged ?? []) {
    const contract = contracts.find((c) => c.kind === f.kind);
    out.push({
      kind: f.kind,
      description_quality_score: contract === undefined ? 0 : score(contract).score,
      issue: f.issue,
    });
  }
  for (const r of s.refused ?? []) {
    if (r.code !== 'LOW_QUALITY' || r.kind === undefined) continue;
    out.push({
      kind: r.kind,
      description_quality_score: r.description_quality_score ?? 0,
      issue: `Not published: ${r.reason}`,
    });
  }
  return out;
}

/** One `xprotocol_sources` entry, checked; its endpoint disclosed without credentials. */
function _xpSourceEntry(s: AnnounceXpSource, i: number): AnnouncePayload['xprotocol_sources'][number] {
  let endpoint: string | undefined;
  if (s.endpoint !== undefined) {
    endpoint = publicUrl(s.endpoint, ['xp:']);
    if (endpoint === undefined)
      throw new RegistryError(
        'INVALID_ANNOUNCE',
        `xprotocol_sources[${i}].endpoint: expected xp://host[:port], got ${JSON.stringify(s.endpoint)}`,
      );
  }
  if (s.endpoint === undefined && s.key === undefined) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `xprotocol_sources[${i}]: expected an endpoint (xp://host[:port]) or a key (ed25519:…), got neither`,
    );
  }
  if (s.key !== undefined && !ED25519.test(s.key)) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `xprotocol_sources[${i}].key: expected "ed25519:" followed by 64 lowercase hex digits`,
    );
  }
  if (!Number.isInteger(s.tool_count) || s.tool_count < 0) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `xprotocol_sources[${i}].tool_count: expected a non-negative integer, got ${JSON.stringify(s.tool_count)}`,
    );
  }
  return {
    name: s.name,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(s.key !== undefined ? { key: s.key } : {}),
    tool_count: s.tool_count,
  };
}

/** The canonical JSON (RFC 8785) of an announce payload: the event's content. */
export function serializeAnnouncePayload(payload: AnnouncePayload): string {
  return canonicalJson(payload);
}

/** Options of {@link signAnnounce}. */
export interface SignAnnounceOptions {
  /** The event's `created_at`, unix seconds. */
  readonly nowSeconds: number;
  /** The event expires this many seconds after `nowSeconds`. */
  readonly ttlSeconds: number;
  readonly signatures: SignatureBackend;
}

/**
 * Signs an announce: kind `xp.endpoint.announce`, content {@link serializeAnnouncePayload}, an
 * `x25519` tag and an `expiration`. Throws {@link RegistryError} `INVALID_ANNOUNCE` when the
 * payload's `x25519` is not the signing identity's own encryption key.
 */
export function signAnnounce(
  payload: AnnouncePayload,
  identity: Identity,
  options: SignAnnounceOptions,
): XpEvent {
  if (payload.x25519 !== identity.keys.x25519) {
    throw new RegistryError(
      'INVALID_ANNOUNCE',
      `x25519: expected the signing identity's key ${identity.keys.x25519}, got ${JSON.stringify(payload.x25519)}`,
    );
  }
  return signEvent(
    createEventTemplate({
      kind: ANNOUNCE_KIND,
      content: serializeAnnouncePayload(payload),
      tags: [['x25519', payload.x25519]],
      created_at: options.nowSeconds,
      expiration: options.nowSeconds + options.ttlSeconds,
    }),
    identity.ed25519.secretKey,
    options.signatures,
  );
}

/** @internal True for a plain JSON object. */
export function _isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @internal A non-negative safe integer. */
export function _isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** @internal `null`, `an array` or the `typeof`. */
export function _kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** `_kindOf` as a phrase: `an object`, `a string`, `null`. */
function _aKindOf(value: unknown): string {
  const kind = _kindOf(value);
  return kind === 'object' ? 'an object' : kind === 'null' || kind === 'an array' ? kind : `a ${kind}`;
}

/**
 * A URL as it may be disclosed: no user name or password, no query string, no fragment. Returns
 * `undefined` when `url` does not parse or its scheme is not in `schemes`.
 * @example
 * publicUrl('https://user:secret@mcp.example.com/sse?token=abc#x', ['https:']); // 'https://mcp.example.com/sse'
 */
export function publicUrl(url: string, schemes: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!schemes.includes(parsed.protocol)) return undefined;
  // unchanged when there is nothing to remove (keeps the configured spelling, e.g. no trailing "/")
  if (
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    !/[?#@]/.test(url)
  )
    return url;
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

function _defaultScore(contract: SchemaContract): QualityScore {
  const s = contract.source as { mcp_tool?: unknown; mcp_prompt?: unknown };
  const name =
    typeof s.mcp_tool === 'string'
      ? s.mcp_tool
      : typeof s.mcp_prompt === 'string'
        ? s.mcp_prompt
        : contract.kind;
  return descriptionQualityScore(contract.description, { name });
}
