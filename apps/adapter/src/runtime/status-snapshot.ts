/**
 * What a running adapter tells `xprotocol-adapter status` about itself (docs/cli.md, "status"):
 * the snapshot's shape — the one `status --json` prints —, how often it is written, when it is
 * too old to be an adapter's that runs, and the two tallies kept for it since start: the calls by
 * outcome and error code, and the last warnings and errors. Nothing in it comes from the config
 * file: every field is what the running parts report. It holds no secret: a source's error and a
 * logged problem keep their first line only, cut short, and a log record gives only a few known
 * fields (`code`, `source`, `relay`, `kind`), never its others.
 * @module
 */

import type { XpEvent } from '@xprotocol/crypto';
import type { InboundOutcome } from '@xprotocol/mcp-bridge';
import type { RelayStatus } from '@xprotocol/relay-client';
import type { AdapterConfig } from '../config/index.js';
import type { SourceStatus } from './mcp-sources.js';

/** The sources and relays are read this often, and a snapshot that changed is written (milliseconds). */
export const STATUS_REFRESH_MS = 2_000;
/** A snapshot that did not change is written again this often, to say the adapter is alive (milliseconds). */
export const STATUS_HEARTBEAT_MS = 5_000;
/** After a change (a call answered, a problem logged) the snapshot is written within this (milliseconds). */
export const STATUS_SETTLE_MS = 250;
/** A snapshot older than this (four heartbeats) is not a running adapter's (milliseconds). */
export const STATUS_STALE_MS = 20_000;
/** Warnings and errors kept. */
const ERRORS_KEPT = 20;
/** Refused calls kept with their message (all are counted). */
const REFUSALS_KEPT = 5;
/** Longest message kept, in characters. */
const MESSAGE_CHARS = 300;

/** The adapter's delegation chain, as a caller would check it. */
export interface ChainSummary {
  /** The key that issued the chain's first link. */
  root: string;
  links: number;
  /** What the last link grants. */
  capabilities: string[];
  /** When the chain's first link to expire does (ISO 8601). */
  expires_at: string;
}

/** One `mcp_sources` entry as it is now. */
export interface SourceHealth {
  name: string;
  transport: string;
  /** An HTTP source's URL without credentials or query; `null` for stdio. */
  url: string | null;
  connected: boolean;
  tools: number;
  /** Tools tool pinning holds back (`xprotocol-adapter approve`). */
  waiting_approval: number;
  /** First line of why it is not connected (or of its last failure); `null` when none. */
  last_error: string | null;
}

/** One `xprotocol_sources` endpoint as the MCP face sees it. */
export interface XpSourceHealth {
  name: string;
  tools: number;
  last_error: string | null;
}

/** One relay connection. */
export interface RelayHealth {
  url: string;
  connected: boolean;
  last_error: string | null;
}

/** One refused call. */
export interface RefusedCall {
  at: string;
  /** The kind the caller asked for. */
  kind: string;
  code: string;
  message: string;
}

/** Inbound XProtocol events since start, by what became of them. */
export interface CallCounts {
  /** Answered with a result. */
  served: number;
  /** Answered with an `xp.error`. */
  refused: number;
  /** Dropped without an answer (bad signature, duplicate, stale…). */
  dropped: number;
  refused_by_code: Record<string, number>;
  /** The last few refusals, oldest first. */
  last_refused: RefusedCall[];
}

/** A warning or error the adapter logged. */
export interface LoggedProblem {
  at: string;
  level: 'warn' | 'error';
  code?: string;
  source?: string;
  relay?: string;
  kind?: string;
  message: string;
}

/** The snapshot (docs/cli.md, "status"). */
export interface StatusSnapshot {
  mode: AdapterConfig['mode'];
  phase: 'starting' | 'ready' | 'stopping';
  /** The adapter's ed25519 key; `null` for a pure MCP gateway. */
  key: string | null;
  /** `null`: the adapter runs with no delegation chain. */
  chain: ChainSummary | null;
  sources: SourceHealth[];
  xprotocol_sources: XpSourceHealth[];
  relays: RelayHealth[];
  calls: CallCounts;
  /** The last warnings and errors, oldest first. */
  errors: LoggedProblem[];
}

/** What the running parts report, read each time a snapshot is written. */
export interface StatusHealth {
  sources: readonly Pick<
    SourceStatus,
    'name' | 'transport' | 'url' | 'connected' | 'toolCount' | 'quarantined' | 'error'
  >[];
  xprotocolSources: readonly { name: string; tools: number; error: string | undefined }[];
  relays: readonly Pick<RelayStatus, 'url' | 'state' | 'lastError'>[];
}

/** The health part of a snapshot. */
export function healthSnapshot(
  health: StatusHealth,
): Pick<StatusSnapshot, 'sources' | 'xprotocol_sources' | 'relays'> {
  return {
    sources: health.sources.map((s) => ({
      name: s.name,
      transport: s.transport,
      url: s.url ?? null,
      connected: s.connected,
      tools: s.toolCount,
      waiting_approval: s.quarantined.length,
      last_error: _firstLine(s.error),
    })),
    xprotocol_sources: health.xprotocolSources.map((s) => ({
      name: s.name,
      tools: s.tools,
      last_error: _firstLine(s.error),
    })),
    relays: health.relays.map((r) => ({
      url: r.url,
      connected: r.state === 'open',
      last_error: _firstLine(r.lastError),
    })),
  };
}

/** Inbound events since start, by outcome and error code. */
export class CallTally {
  #served = 0;
  #dropped = 0;
  #refused = 0;
  readonly #byCode = new Map<string, number>();
  readonly #lastRefused: RefusedCall[] = [];

  /** Counts one outcome; false for an event that is never answered (nothing changed). */
  record(outcome: InboundOutcome, request: XpEvent | undefined, atMs: number): boolean {
    if (outcome.action === 'ignored') return false;
    if (outcome.action === 'dropped') {
      this.#dropped++;
      return true;
    }
    if (outcome.code === undefined) {
      this.#served++;
      return true;
    }
    this.#refused++;
    this.#byCode.set(outcome.code, (this.#byCode.get(outcome.code) ?? 0) + 1);
    this.#lastRefused.push({
      at: new Date(atMs).toISOString(),
      kind: request?.kind ?? '',
      code: outcome.code,
      message: _firstLine(outcome.message) ?? '',
    });
    if (this.#lastRefused.length > REFUSALS_KEPT) this.#lastRefused.shift();
    return true;
  }

  counts(): CallCounts {
    return {
      served: this.#served,
      refused: this.#refused,
      dropped: this.#dropped,
      refused_by_code: Object.fromEntries([...this.#byCode].sort(([a], [b]) => (a < b ? -1 : 1))),
      last_refused: [...this.#lastRefused],
    };
  }
}

/** The fields of a log record a problem keeps: ones that name what failed, never what it carried. */
const _KEPT_FIELDS = ['code', 'source', 'relay', 'kind'] as const;

/** The last warnings and errors the adapter logged. */
export class RecentProblems {
  readonly #problems: LoggedProblem[] = [];

  /**
   * Keeps a warning or an error (false for any other level, and for a lifecycle event: nothing
   * changed).
   */
  record(level: string, fields: Record<string, unknown>, message: string, atMs: number): boolean {
    if (level !== 'warn' && level !== 'error') return false;
    // `{"event":…}` lines (mode, ready, stopped) mark the lifecycle; `start` raises `ready` to the
    // logger's level so that tools waiting for it see it, which does not make it a problem.
    if (typeof fields.event === 'string') return false;
    const named: Partial<Record<(typeof _KEPT_FIELDS)[number], string>> = {};
    for (const name of _KEPT_FIELDS) {
      const value = fields[name];
      if (typeof value === 'string') named[name] = _firstLine(value) ?? '';
    }
    this.#problems.push({
      at: new Date(atMs).toISOString(),
      level,
      ...named,
      message: _firstLine(message) ?? '',
    });
    if (this.#problems.length > ERRORS_KEPT) this.#problems.shift();
    return true;
  }

  list(): LoggedProblem[] {
    return [...this.#problems];
  }
}

/** The first line of `text`, cut to {@link MESSAGE_CHARS}; `null` for none or empty. */
function _firstLine(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  const line = text.split('\n', 1)[0]!;
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS - 1)}…` : line;
}
