/**
 * Kinds (docs/protocol.md §10.1; docs/design.md §2, §6): `{namespace}.{tool}`, `{kind}.result`,
 * `{namespace}.prompt.{name}`, `{namespace}.resource.{template}`. A kind is dot-separated segments
 * of `[A-Za-z0-9_-]+`; `.` and `/` inside a name become `_`, and a name that is exactly one of the
 * words kinds are built with (`prompt`, `resource`, `result`) gets a trailing `_`, so no tool's kind
 * or answer kind can be another entry's. The `xp.` namespace is reserved for the protocol's own kinds.
 * @module
 */
import { isValidKind } from '@xprotocol/crypto';
import { isReservedKind } from '@xprotocol/wire';
import { _preview } from './_json-util.js';
import { TranslateError } from './errors.js';

/** Longest kind of a contract, in characters (a kind is ASCII). Longer kinds are refused. */
export const MAX_KIND_LENGTH = 255;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * Names that would read as structure at the name's position: `prompt` and `resource` start the
 * kinds of prompts and resource templates, `result` ends answer kinds. Such a name's segment gets
 * a trailing `_` (docs/protocol.md §10.1).
 */
const RESERVED_NAME_SEGMENTS: readonly string[] = ['prompt', 'resource', 'result'];
/**
 * True when `text` can be a contract's kind or namespace: a kind by the event grammar
 * (`@xprotocol/crypto`'s `isValidKind`: dot-separated segments of `[A-Za-z0-9_-]+`) of at most
 * {@link MAX_KIND_LENGTH} characters.
 */
export function isContractKind(text: unknown): text is string {
  return isValidKind(text) && text.length <= MAX_KIND_LENGTH;
}

/** The response kind of a call kind: `{kind}.result` (docs/design.md §2). */
export function resultKind(kind: string): string {
  return `${kind}.result`;
}

/**
 * Checks a source's `xprotocol_namespace`: a well-formed kind outside the reserved `xp` namespace.
 * Throws {@link TranslateError} `INVALID_NAMESPACE` saying what was expected.
 * @example
 * assertNamespace('com.acme.filesystem'); // ok
 * assertNamespace('xp.tools'); // throws: the "xp" namespace is reserved
 */
export function assertNamespace(namespace: unknown): asserts namespace is string {
  if (!isContractKind(namespace)) {
    throw new TranslateError(
      'INVALID_NAMESPACE',
      `namespace: expected dot-separated segments of [A-Za-z0-9_-]+ (at most ${MAX_KIND_LENGTH} characters), got ${_preview(namespace)}`,
    );
  }
  if (isReservedKind(namespace)) {
    throw new TranslateError(
      'INVALID_NAMESPACE',
      `namespace: the "xp" namespace is reserved for protocol kinds, got ${JSON.stringify(namespace)}`,
    );
  }
}

/** Outcome of mapping a name to a kind segment: the segment, or why there is none. */
export type SegmentResult = { ok: true; segment: string } | { ok: false; reason: string };

/**
 * Maps an MCP tool, prompt or resource-template name to one kind segment: `.` and `/` become `_`;
 * a segment that is one of {@link RESERVED_NAME_SEGMENTS} gets a trailing `_`; anything else
 * outside `[A-Za-z0-9_-]` makes the name unusable (it is refused, never silently rewritten).
 * @example
 * toolSegment('files/read.v2'); // { ok: true, segment: 'files_read_v2' }
 * toolSegment('result'); // { ok: true, segment: 'result_' }
 * toolSegment('read file'); // { ok: false, reason: '...' }
 */
export function toolSegment(name: unknown): SegmentResult {
  if (typeof name !== 'string' || name.length === 0) {
    return { ok: false, reason: `expected a non-empty string name, got ${_preview(name)}` };
  }
  const segment = name.replace(/[./]/g, '_');
  if (!SEGMENT.test(segment)) {
    const bad = [...segment].find((ch) => !/[A-Za-z0-9_-]/.test(ch)) ?? '';
    return {
      ok: false,
      reason: `name ${_preview(name)} contains ${JSON.stringify(bad)}: a kind segment allows only [A-Za-z0-9_-] (with "." and "/" mapped to "_")`,
    };
  }
  // Only the exact lowercase words: kinds compare case-sensitively, so `Result` is no answer kind.
  return { ok: true, segment: RESERVED_NAME_SEGMENTS.includes(segment) ? `${segment}_` : segment };
}

/** Outcome of building a kind. */
export type KindResult = { ok: true; kind: string } | { ok: false; reason: string };

/**
 * The kind of an MCP tool: `{namespace}.{segment}` (docs/design.md §2). The namespace must already
 * be valid ({@link assertNamespace}).
 * @example
 * toolKind('com.acme.filesystem', 'read_file'); // { ok: true, kind: 'com.acme.filesystem.read_file' }
 */
export function toolKind(namespace: string, toolName: unknown): KindResult {
  const seg = toolSegment(toolName);
  if (!seg.ok) return seg;
  return _finish(`${namespace}.${seg.segment}`);
}

/**
 * The kind of an MCP prompt: `{namespace}.prompt.{segment}` (docs/design.md §6).
 * @example
 * promptKind('com.acme.docs', 'summarize'); // { ok: true, kind: 'com.acme.docs.prompt.summarize' }
 */
export function promptKind(namespace: string, promptName: unknown): KindResult {
  const seg = toolSegment(promptName);
  if (!seg.ok) return seg;
  return _finish(`${namespace}.prompt.${seg.segment}`);
}

/**
 * The kind of an MCP resource template: `{namespace}.resource.{segment}` (docs/protocol.md §10.11).
 * @example
 * resourceTemplateKind('com.acme.docs', 'note'); // { ok: true, kind: 'com.acme.docs.resource.note' }
 */
export function resourceTemplateKind(namespace: string, templateName: unknown): KindResult {
  const seg = toolSegment(templateName);
  if (!seg.ok) return seg;
  return _finish(`${namespace}.resource.${seg.segment}`);
}

/**
 * What a contract calls upstream: `prompt` or `resource_template` when its `source` names an MCP
 * prompt or resource template, or when its kind is `{source.namespace}.prompt.…` or
 * `….resource.…` (no tool's kind is: those words are renamed at the name position); else `tool`.
 * An MCP face lists only `tool` contracts as tools (docs/protocol.md §10.11).
 * @example
 * contractEntryType({ kind: 'a.b.prompt.x', source: { namespace: 'a.b' } }); // 'prompt'
 */
export function contractEntryType(contract: {
  kind: string;
  source?: { namespace?: unknown; mcp_prompt?: unknown; mcp_resource_template?: unknown } | undefined;
}): 'tool' | 'prompt' | 'resource_template' {
  const source = contract.source;
  if (typeof source?.mcp_prompt === 'string') return 'prompt';
  if (typeof source?.mcp_resource_template === 'string') return 'resource_template';
  const namespace = source?.namespace;
  if (typeof namespace === 'string' && contract.kind.startsWith(`${namespace}.`)) {
    const rest = contract.kind.slice(namespace.length + 1);
    if (rest.startsWith('prompt.')) return 'prompt';
    if (rest.startsWith('resource.')) return 'resource_template';
  }
  return 'tool';
}

function _finish(kind: string): KindResult {
  // `.result` is appended for the response kind, so the call kind leaves room for it
  if (kind.length + '.result'.length > MAX_KIND_LENGTH) {
    return {
      ok: false,
      reason: `kind ${JSON.stringify(`${kind.slice(0, 40)}...`)} is ${kind.length} characters; with ".result" it must fit in ${MAX_KIND_LENGTH}`,
    };
  }
  return { ok: true, kind };
}
