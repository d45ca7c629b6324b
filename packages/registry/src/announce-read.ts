/**
 * Reading an announce (docs/protocol.md §10.3) from untrusted input: the event verified, every field
 * of the payload checked against the field table (types, formats, the counts against the arrays,
 * `low_quality_schemas` sorted), the `x25519` tag against the payload; and which of several
 * announces of one key is the one to read. Unknown fields are kept for newer writers.
 * @module
 */
import {
  getTag,
  isLowOrderX25519,
  type PublicIdentity,
  parseKey,
  type SignatureBackend,
  verifyEvent,
  type X25519KeyString,
  type XpEvent,
} from '@xprotocol/crypto';
import { isContractKind } from '@xprotocol/translate';
import { ANNOUNCE_KIND } from '@xprotocol/wire';
import {
  _chainProblem,
  _displayNameProblem,
  _isAdapterVersion,
  _isCount,
  _isRecord,
  _kindOf,
  _rotationProblem,
  type AnnouncePayload,
} from './announce.js';

/** An announce read back: the endpoint's keys, its payload and the verified event. */
export interface Announce {
  readonly keys: PublicIdentity;
  readonly payload: AnnouncePayload;
  readonly event: XpEvent;
}

/** The outcome of {@link readAnnounce}: an announce, or a reason saying what was wrong. */
export type ReadAnnounce = { ok: true; announce: Announce } | { ok: false; reason: string };

const X25519 = /^x25519:[0-9a-f]{64}$/;
const ED25519 = /^ed25519:[0-9a-f]{64}$/;
const TRANSPORTS = ['stdio', 'sse', 'streamable_http'];

/**
 * Reads an announce event from untrusted input: verifies it (shape, size, id, signature), checks
 * its kind, parses its content as an {@link AnnouncePayload} (every field) and checks that the
 * `x25519` tag agrees with the payload. Never throws.
 */
export function readAnnounce(value: unknown, signatures: SignatureBackend): ReadAnnounce {
  const verdict = verifyEvent(value, signatures);
  if (!verdict.ok) return { ok: false, reason: `not a valid event (${verdict.code}): ${verdict.message}` };
  const { event } = verdict;
  if (event.kind !== ANNOUNCE_KIND) {
    return {
      ok: false,
      reason: `kind: expected ${JSON.stringify(ANNOUNCE_KIND)}, got ${JSON.stringify(event.kind)}`,
    };
  }
  let content: unknown;
  try {
    content = JSON.parse(event.content);
  } catch {
    return {
      ok: false,
      reason: 'content: expected the JSON of an announce payload, got text that does not parse',
    };
  }
  const parsed = parseAnnouncePayload(content);
  if (!parsed.ok) return parsed;
  const tag = getTag(event, 'x25519');
  if (tag !== parsed.payload.x25519) {
    return {
      ok: false,
      reason: `x25519 tag: expected the payload's ${parsed.payload.x25519}, got ${JSON.stringify(tag ?? null)}`,
    };
  }
  return {
    ok: true,
    announce: {
      keys: { ed25519: event.pubkey, x25519: parsed.payload.x25519 as X25519KeyString },
      payload: parsed.payload,
      event,
    },
  };
}

/**
 * The announce to read among several of one key: the latest `created_at`, and of those the
 * smallest id (lowercase hex compared as text), so every reader picks the same one whatever order
 * the relays sent them in. Events of another kind are not considered. `undefined` for none.
 */
export function newestAnnounce(events: readonly XpEvent[]): XpEvent | undefined {
  let newest: XpEvent | undefined;
  for (const event of events) {
    if (event.kind !== ANNOUNCE_KIND) continue;
    if (
      newest === undefined ||
      event.created_at > newest.created_at ||
      (event.created_at === newest.created_at && event.id < newest.id)
    )
      newest = event;
  }
  return newest;
}

/**
 * Checks that `value` is an {@link AnnouncePayload} by the field table of docs/protocol.md §10.3:
 * every required field with its type and format, the counts equal to what the arrays hold,
 * `low_quality_schemas` sorted by kind. Unknown fields are kept (a newer adapter may add some).
 * Never throws.
 */
export function parseAnnouncePayload(
  value: unknown,
): { ok: true; payload: AnnouncePayload } | { ok: false; reason: string } {
  const problem = _payloadProblem(value);
  return problem === undefined
    ? { ok: true, payload: value as AnnouncePayload }
    : { ok: false, reason: `announce payload ${problem}` };
}

function _payloadProblem(value: unknown): string | undefined {
  if (!_isRecord(value)) return `: expected an object, got ${_kindOf(value)}`;
  return (
    _identityProblem(value) ??
    _relaysProblem(value.relays) ??
    _mcpSourcesProblem(value.mcp_sources) ??
    _xpSourcesProblem(value.xprotocol_sources) ??
    (value.served_sources === undefined ? undefined : _servedSourcesProblem(value.served_sources)) ??
    _lowQualityProblem(value.low_quality_schemas) ??
    _countsProblem(value) ??
    (value.rotated_from === undefined ? undefined : _rotationProblem(value.rotated_from)) ??
    (value.delegation_chain === undefined ? undefined : _chainProblem(value.delegation_chain))
  );
}

/** `display_name`, `adapter_version`, `x25519`. */
function _identityProblem(value: Record<string, unknown>): string | undefined {
  const name = _displayNameProblem(value.display_name);
  if (name !== undefined) return name;
  if (!_isAdapterVersion(value.adapter_version))
    return `adapter_version: expected a SemVer 2.0.0 version of at most 64 characters, got ${JSON.stringify(value.adapter_version ?? null)}`;
  const key = value.x25519;
  if (typeof key !== 'string' || !X25519.test(key))
    return `x25519: expected "x25519:" and 64 lowercase hex digits, got ${JSON.stringify(key ?? null)}`;
  if (isLowOrderX25519(parseKey(key, 'x25519').bytes))
    return 'x25519: a point of low order: nothing can be sealed to it (docs/protocol.md §4)';
  return undefined;
}

/** A URL with one of `schemes`, no user name, password, query or fragment; else why not. */
function _urlProblem(url: unknown, schemes: readonly string[], what: string): string | undefined {
  const expected = `expected a ${schemes.map((s) => `${s}//`).join(' or ')} URL without credentials, query or fragment`;
  if (typeof url !== 'string') return `${what}: ${expected}, got ${_kindOf(url)}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${what}: ${expected}, got ${JSON.stringify(url)}`;
  }
  const clean =
    schemes.includes(parsed.protocol) &&
    parsed.username === '' &&
    parsed.password === '' &&
    !/[?#]/.test(url);
  return clean ? undefined : `${what}: ${expected}, got ${JSON.stringify(url)}`;
}

function _relaysProblem(relays: unknown): string | undefined {
  if (!Array.isArray(relays))
    return `relays: expected an array of ws:// or wss:// URLs, got ${_kindOf(relays)}`;
  for (const [i, url] of relays.entries()) {
    const problem = _urlProblem(url, ['ws:', 'wss:'], `relays[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function _mcpSourcesProblem(sources: unknown): string | undefined {
  if (!Array.isArray(sources)) return 'mcp_sources: expected an array';
  for (const [i, s] of sources.entries()) {
    const at = `mcp_sources[${i}]`;
    if (!_isRecord(s)) return `${at}: expected an object`;
    if (typeof s.name !== 'string' || s.name === '') return `${at}.name: expected a non-empty string`;
    if (typeof s.transport !== 'string' || !TRANSPORTS.includes(s.transport))
      return `${at}.transport: expected "stdio", "sse" or "streamable_http", got ${JSON.stringify(s.transport ?? null)}`;
    if (s.transport === 'stdio' && s.url !== undefined)
      return `${at}.url: a stdio source has no URL (its command is never disclosed)`;
    if (s.url !== undefined) {
      const problem = _urlProblem(s.url, ['http:', 'https:'], `${at}.url`);
      if (problem !== undefined) return problem;
    }
    if (!isContractKind(s.namespace))
      return `${at}.namespace: expected dot-separated segments of [A-Za-z0-9_-]+ (a namespace), got ${JSON.stringify(s.namespace ?? null)}`;
    for (const field of ['tool_count', 'prompt_count'] as const)
      if (!_isCount(s[field])) return `${at}.${field}: expected a non-negative integer`;
  }
  return undefined;
}

/** `served_sources` (optional): like `mcp_sources`, with `transport` `native` or `openapi`, a URL only for `openapi`. */
function _servedSourcesProblem(sources: unknown): string | undefined {
  if (!Array.isArray(sources)) return 'served_sources: expected an array';
  for (const [i, s] of sources.entries()) {
    const at = `served_sources[${i}]`;
    if (!_isRecord(s)) return `${at}: expected an object`;
    if (typeof s.name !== 'string' || s.name === '') return `${at}.name: expected a non-empty string`;
    if (s.transport !== 'native' && s.transport !== 'openapi')
      return `${at}.transport: expected "native" or "openapi", got ${JSON.stringify(s.transport ?? null)}`;
    if (s.transport === 'native' && s.url !== undefined)
      return `${at}.url: a native source has no URL (it runs in the endpoint's own process)`;
    if (s.url !== undefined) {
      const problem = _urlProblem(s.url, ['http:', 'https:'], `${at}.url`);
      if (problem !== undefined) return problem;
    }
    if (!isContractKind(s.namespace))
      return `${at}.namespace: expected dot-separated segments of [A-Za-z0-9_-]+ (a namespace), got ${JSON.stringify(s.namespace ?? null)}`;
    for (const field of ['tool_count', 'prompt_count'] as const)
      if (!_isCount(s[field])) return `${at}.${field}: expected a non-negative integer`;
  }
  return undefined;
}

function _xpSourcesProblem(sources: unknown): string | undefined {
  if (!Array.isArray(sources)) return 'xprotocol_sources: expected an array';
  for (const [i, s] of sources.entries()) {
    const at = `xprotocol_sources[${i}]`;
    if (!_isRecord(s)) return `${at}: expected an object`;
    if (typeof s.name !== 'string' || s.name === '') return `${at}.name: expected a non-empty string`;
    if (s.endpoint === undefined && s.key === undefined)
      return `${at}: expected an endpoint or a key, got neither`;
    if (s.endpoint !== undefined) {
      const problem = _urlProblem(s.endpoint, ['xp:'], `${at}.endpoint`);
      if (problem !== undefined) return problem;
    }
    if (s.key !== undefined && (typeof s.key !== 'string' || !ED25519.test(s.key)))
      return `${at}.key: expected "ed25519:" and 64 lowercase hex digits`;
    if (!_isCount(s.tool_count)) return `${at}.tool_count: expected a non-negative integer`;
  }
  return undefined;
}

function _lowQualityProblem(entries: unknown): string | undefined {
  if (!Array.isArray(entries)) return 'low_quality_schemas: expected an array';
  let previous = '';
  for (const [i, s] of entries.entries()) {
    const at = `low_quality_schemas[${i}]`;
    if (!_isRecord(s) || typeof s.issue !== 'string')
      return `${at}: expected {kind, description_quality_score, issue}`;
    if (!isContractKind(s.kind)) return `${at}.kind: expected a kind, got ${JSON.stringify(s.kind ?? null)}`;
    const score = s.description_quality_score;
    if (typeof score !== 'number' || !(score >= 0 && score <= 1))
      return `${at}.description_quality_score: expected a number from 0 to 1, got ${JSON.stringify(score ?? null)}`;
    if (s.kind < previous)
      return `${at}.kind: expected the entries sorted by kind, got ${JSON.stringify(s.kind)} after ${JSON.stringify(previous)}`;
    previous = s.kind;
  }
  return undefined;
}

/**
 * `counts`: non-negative integers; the three that count an array equal to its length, `tools` and
 * `prompts` at least what the MCP sources add up to; `schemas` free.
 */
function _countsProblem(value: Record<string, unknown>): string | undefined {
  const counts = value.counts;
  if (!_isRecord(counts)) return 'counts: expected an object';
  for (const field of [
    'mcp_sources',
    'xprotocol_sources',
    'schemas',
    'tools',
    'prompts',
    'low_quality_schemas',
  ])
    if (!_isCount(counts[field])) return `counts.${field}: expected a non-negative integer`;
  const mcp = value.mcp_sources as Record<string, number>[];
  const served = (value.served_sources ?? []) as Record<string, number>[];
  const sum = (field: string) => [...mcp, ...served].reduce((total, s) => total + (s[field] as number), 0);
  const equal: [string, number, string][] = [
    ['mcp_sources', mcp.length, 'the length of mcp_sources'],
    ['xprotocol_sources', (value.xprotocol_sources as unknown[]).length, 'the length of xprotocol_sources'],
    [
      'low_quality_schemas',
      (value.low_quality_schemas as unknown[]).length,
      'the length of low_quality_schemas',
    ],
  ];
  for (const [field, want, what] of equal)
    if (counts[field] !== want) return `counts.${field}: expected ${want} (${what}), got ${counts[field]}`;
  // An endpoint may serve contracts of its own beside its MCP servers' (a native endpoint does).
  const atLeast: [string, number, string][] = [
    [
      'tools',
      sum('tool_count'),
      `the sum of mcp_sources[].tool_count${served.length > 0 ? ' and served_sources[].tool_count' : ''}`,
    ],
    [
      'prompts',
      sum('prompt_count'),
      `the sum of mcp_sources[].prompt_count${served.length > 0 ? ' and served_sources[].prompt_count' : ''}`,
    ],
  ];
  for (const [field, least, what] of atLeast)
    if ((counts[field] as number) < least)
      return `counts.${field}: expected at least ${least} (${what}), got ${counts[field]}`;
  return undefined;
}
