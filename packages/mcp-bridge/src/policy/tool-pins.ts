/**
 * Tool pinning (docs/security.md, "Tool pinning"): the adapter trusts a tool's definition as it
 * first saw it, and holds back any later change until an operator approves it. A server that
 * changes a tool's description, schemas or annotations after it was adopted (a "rug pull":
 * an `<IMPORTANT>` instruction and a new parameter, then `notifications/tools/list_changed`) gets
 * its change quarantined: the pinned definition stays what is published and served, and the new
 * one waits in the state database for `xprotocol-adapter approve`.
 *
 * The hash covers the whole definition a client receives — every field, `_meta` and `icons`
 * included — as RFC 8785 canonical JSON, SHA-256: any change at all is held. A tool seen for the
 * first time is pinned as it is — unless description linting flags it: then it is quarantined too
 * (deny by default), unless the source says `description_lint: warn`.
 *
 * Pins written before the hash covered everything hold a hash of five fields only. Such a pin is
 * recognised by its hash (the old hash of its own stored definition) and compared by its stored
 * definition instead: a listing identical to it in every field is re-pinned under the new hash
 * (reported in `migrated`); anything else is a change and is held.
 * @module
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@xprotocol/crypto';
import { type DescriptionFinding, lintToolDefinition } from './description-lint.js';
import { escapeForDisplay } from './display-escape.js';

/** A tool's pinned definition, and a change waiting for approval if there is one. */
export interface ToolPin {
  source: string;
  tool: string;
  /** The approved definition's hash; `undefined` for a new tool that waits for a first approval. */
  hash: string | undefined;
  definition: Record<string, unknown> | undefined;
  pending:
    | { hash: string; definition: Record<string, unknown>; findings: DescriptionFinding[]; since: number }
    | undefined;
}

/** Where pins live (the state database). */
export interface ToolPinStore {
  /** Every pin of `source`, by tool name. */
  toolPins(source: string): Map<string, ToolPin>;
  /** Pins `definition` (approved), clearing any pending change. */
  pinTool(source: string, tool: string, hash: string, definition: Record<string, unknown>): void;
  /** Holds a change (or a flagged new tool) for approval; the pinned definition stays. */
  holdTool(
    source: string,
    tool: string,
    hash: string,
    definition: Record<string, unknown>,
    findings: readonly DescriptionFinding[],
    nowMs: number,
  ): void;
}

/** A tool held back, and why. */
export interface QuarantinedTool {
  tool: string;
  /** `changed`: the pinned definition is served; `new`: nothing is published until approval. */
  state: 'changed' | 'new';
  pinnedHash: string | undefined;
  pendingHash: string;
  findings: DescriptionFinding[];
  /** One line for logs and the announce. */
  reason: string;
}

/** What {@link applyToolPins} decided for one listing. */
export interface PinnedListing {
  /** The tools to publish and serve: pinned definitions in place of held changes; held new tools left out. */
  tools: Record<string, unknown>[];
  quarantined: QuarantinedTool[];
  /** Findings of the tools that are published (a pinned definition approved with findings, or `warn`). */
  findings: Map<string, DescriptionFinding[]>;
  /** Tools whose five-field pin was re-pinned under the whole-definition hash (identical listing). */
  migrated: string[];
}

/** SHA-256 (hex) of the canonical JSON of a whole tool definition, as a client receives it. */
export function toolDefinitionHash(tool: Readonly<Record<string, unknown>>): string {
  return _sha256(tool);
}

/** The hash pins had before it covered the whole definition: five fields only. */
function _fiveFieldHash(tool: Readonly<Record<string, unknown>>): string {
  const pinned: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'inputSchema', 'outputSchema', 'annotations']) {
    if (tool[key] !== undefined) pinned[key] = tool[key];
  }
  return _sha256(pinned);
}

function _sha256(value: Readonly<Record<string, unknown>>): string {
  return createHash('sha256')
    .update(canonicalJson(value, { allowUnsafeIntegers: true }), 'utf8')
    .digest('hex');
}

/** Findings by definition hash: a refresh relists the same definitions, and the lint reads every string. */
const _lintCache = new Map<string, DescriptionFinding[]>();
const _LINT_CACHE_SIZE = 4096;

/** The lint findings of `tool`, whose whole-definition hash is `hash`. */
function _findingsOf(hash: string, tool: Readonly<Record<string, unknown>>): DescriptionFinding[] {
  let findings = _lintCache.get(hash);
  if (findings === undefined) {
    findings = lintToolDefinition(tool);
    if (_lintCache.size >= _LINT_CACHE_SIZE) _lintCache.clear();
    _lintCache.set(hash, findings);
  }
  return findings;
}

/**
 * The hash `pin` stands for today: its own, or for a pin written with the five-field hash (its
 * hash is the five-field hash of its stored definition), the whole-definition hash of that
 * stored definition.
 */
function _pinnedHash(pin: ToolPin | undefined): string | undefined {
  if (pin?.hash === undefined || pin.definition === undefined) return pin?.hash;
  const whole = toolDefinitionHash(pin.definition);
  return pin.hash !== whole && pin.hash === _fiveFieldHash(pin.definition) ? whole : pin.hash;
}

/**
 * Applies the pins of `source` to what its server listed: pins tools seen for the first time
 * (unless linting flags them and `quarantineFlagged`), keeps the pinned definition of a changed
 * tool and holds the change. Writes to `store`.
 */
export function applyToolPins(options: {
  store: ToolPinStore;
  source: string;
  tools: readonly Record<string, unknown>[];
  quarantineFlagged: boolean;
  now?: () => number;
}): PinnedListing {
  const { store, source } = options;
  const now = options.now ?? Date.now;
  const pins = store.toolPins(source);
  const out: PinnedListing = { tools: [], quarantined: [], findings: new Map(), migrated: [] };
  for (const tool of options.tools) {
    const name = typeof tool.name === 'string' ? tool.name : undefined;
    if (name === undefined) {
      out.tools.push(tool); // translation refuses it with its reason
      continue;
    }
    const hash = toolDefinitionHash(tool);
    const pin = pins.get(name);
    const pinnedHash = _pinnedHash(pin);
    const findings = _findingsOf(hash, tool);
    if (pinnedHash === hash && pin?.definition !== undefined) {
      // The server went back to the pinned definition: a change it had made no longer waits.
      // A five-field pin of this very definition is rewritten under the whole-definition hash.
      if (pin.pending !== undefined || pin.hash !== hash) store.pinTool(source, name, hash, tool);
      if (pin.hash !== hash) out.migrated.push(name);
      out.tools.push(tool);
      if (findings.length > 0) out.findings.set(name, findings);
      continue;
    }
    if (pin?.hash === undefined && (findings.length === 0 || !options.quarantineFlagged)) {
      store.pinTool(source, name, hash, tool);
      out.tools.push(tool);
      if (findings.length > 0) out.findings.set(name, findings);
      continue;
    }
    if (pin?.pending?.hash !== hash) store.holdTool(source, name, hash, tool, findings, now());
    const approve = `xprotocol-adapter approve ${source} ${escapeForDisplay(name)} --dry-run`;
    const flagged = findings.length > 0 ? `; ${findings.map((f) => f.message).join('; ')}` : '';
    if (pinnedHash !== undefined && pin?.definition !== undefined) {
      out.tools.push({ ...pin.definition, name });
      out.quarantined.push({
        tool: name,
        state: 'changed',
        pinnedHash,
        pendingHash: hash,
        findings,
        reason: `its server changed the definition (pinned ${pinnedHash.slice(0, 12)}, now ${hash.slice(0, 12)})${flagged}; the pinned definition is served until an operator reviews it with ${approve} and approves its hash`,
      });
    } else {
      out.quarantined.push({
        tool: name,
        state: 'new',
        pinnedHash: undefined,
        pendingHash: hash,
        findings,
        reason: `not published: description linting flagged it${flagged}; an operator may review it with ${approve} and publish it by approving its hash`,
      });
    }
  }
  return out;
}
