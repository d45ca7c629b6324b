/**
 * MCP tool names for contracts (Direction 2; docs/design.md §3):
 * 1. take the kind; strip the contract's namespace when it declares one (`source.namespace`);
 * 2. replace every character outside `[A-Za-z0-9_-]` with `_`;
 * 3. prepend `mcp_tool_prefix` unless the name already starts with it;
 * 4. a name over 64 characters, or one taken by an earlier tool, becomes its first 55 characters
 *    + `_` + the first 8 hex digits of SHA-256(UTF-8 of endpoint key ‖ kind).
 * Names already assigned (persisted by the caller) are kept, so a refresh never renames a tool.
 * New names are assigned in kind order, so "earlier" is well defined.
 *
 * SHA-256 is injected: this package has no hash dependency and runs in browsers, where Web Crypto
 * is asynchronous. Pass `sha256` from `@noble/hashes/sha2` or `node:crypto`.
 * @module
 */
import type { ContractLike } from './contract.js';
import { TranslateError } from './errors.js';
import { isContractKind } from './kind.js';

/** Longest MCP tool name assigned. */
export const MAX_MCP_TOOL_NAME = 64;

/** A synchronous SHA-256. */
export type Sha256 = (data: Uint8Array) => Uint8Array;

/** Options of {@link assignMcpToolNames}. */
export interface McpToolNameOptions {
  /** `mcp_tool_prefix` of the `xprotocol_sources` entry (may be empty). */
  readonly prefix?: string | undefined;
  /** The endpoint's key (`ed25519:…`); part of the hash so two endpoints never clash the same way. */
  readonly endpointKey: string;
  readonly sha256: Sha256;
  /** Names assigned earlier, by kind (from the state database). */
  readonly persisted?: ReadonlyMap<string, string> | undefined;
  /** Names in use by other sources on the same MCP face. */
  readonly taken?: ReadonlySet<string> | undefined;
}

/** The names assigned, by kind, and the contracts that got none. */
export interface McpToolNameAssignment {
  names: Map<string, string>;
  refused: { kind: string; reason: string }[];
}

const PREFIX = /^[A-Za-z0-9_-]*$/;

/**
 * Steps 1–3 of the rule (no length or collision handling).
 * @example
 * mcpToolBaseName({ kind: 'weather.current.get', payload: {} }, 'weather_'); // 'weather_current_get'
 * mcpToolBaseName({ kind: 'com.test.memory.read_graph', payload: {}, source: { namespace: 'com.test.memory' } }, 'mem_'); // 'mem_read_graph'
 */
export function mcpToolBaseName(contract: Pick<ContractLike, 'kind' | 'source'>, prefix = ''): string {
  _checkPrefix(prefix);
  let name = contract.kind;
  const ns = contract.source?.namespace;
  if (typeof ns === 'string' && ns !== '' && name.startsWith(`${ns}.`)) name = name.slice(ns.length + 1);
  name = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return name.startsWith(prefix) ? name : `${prefix}${name}`;
}

/**
 * Assigns an MCP tool name to every contract of one endpoint (the whole rule).
 * @example
 * const { names } = assignMcpToolNames(contracts, { prefix: 'weather_', endpointKey, sha256 });
 * names.get('weather.current.get'); // 'weather_current_get'
 */
export function assignMcpToolNames(
  contracts: readonly Pick<ContractLike, 'kind' | 'source'>[],
  options: McpToolNameOptions,
): McpToolNameAssignment {
  const prefix = options.prefix ?? '';
  _checkPrefix(prefix);
  const names = new Map<string, string>();
  const refused: { kind: string; reason: string }[] = [];
  const used = new Set<string>(options.taken ?? []);
  const sorted = [...contracts].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const pending: typeof sorted = [];
  const seen = new Set<string>();
  for (const contract of sorted) {
    if (!isContractKind(contract.kind)) {
      refused.push({
        kind: String(contract.kind),
        reason: `not a valid kind: ${JSON.stringify(contract.kind)}`,
      });
      continue;
    }
    if (seen.has(contract.kind)) {
      refused.push({ kind: contract.kind, reason: 'the endpoint lists this kind more than once' });
      continue;
    }
    seen.add(contract.kind);
    const kept = options.persisted?.get(contract.kind);
    if (kept !== undefined && !used.has(kept) && /^[A-Za-z0-9_-]{1,64}$/.test(kept)) {
      names.set(contract.kind, kept);
      used.add(kept);
    } else pending.push(contract);
  }
  for (const contract of pending) {
    let name = mcpToolBaseName(contract, prefix);
    if (name.length > MAX_MCP_TOOL_NAME || used.has(name)) {
      name = `${name.slice(0, 55)}_${_hashSuffix(options, contract.kind)}`;
      if (used.has(name)) {
        refused.push({
          kind: contract.kind,
          reason: `its MCP tool name ${name} (shortened with the hash) is taken by another tool`,
        });
        continue;
      }
    }
    names.set(contract.kind, name);
    used.add(name);
  }
  return { names, refused };
}

function _hashSuffix(options: McpToolNameOptions, kind: string): string {
  const digest = options.sha256(new TextEncoder().encode(`${options.endpointKey}${kind}`));
  if (!(digest instanceof Uint8Array) || digest.length !== 32) {
    throw new TranslateError(
      'NAME_UNAVAILABLE',
      `sha256: expected a 32-byte digest, got ${digest instanceof Uint8Array ? `${digest.length} bytes` : typeof digest}`,
    );
  }
  let hex = '';
  for (let i = 0; i < 4; i++) hex += (digest[i] as number).toString(16).padStart(2, '0');
  return hex;
}

function _checkPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !PREFIX.test(prefix) || prefix.length > 32) {
    throw new TranslateError(
      'NAME_UNAVAILABLE',
      `mcp_tool_prefix: expected at most 32 characters of [A-Za-z0-9_-], got ${JSON.stringify(prefix)}`,
    );
  }
}
