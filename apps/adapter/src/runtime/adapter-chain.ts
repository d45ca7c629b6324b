/**
 * The adapter's own delegation chain (docs/protocol.md §11.3; docs/config.md, `identity`): the
 * chain file `identity.parent_delegation_event` names, loaded when the adapter starts and checked
 * as a caller would — its own link 0 issuer as the root, at this machine's time — and then held
 * to the adapter: its last link must delegate to the adapter's key, and be issued by
 * `identity.parent_key` when that is set. The adapter discloses the links as they are in its
 * announce and well-known document. Every failure is a configuration error that names the file,
 * the link (its index and the start of its id), why, and what to do.
 * @module
 */

import { type AcceptedChain, checkDelegationChain, isKeyString, type RefusedChain } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type AdapterConfig, ConfigError } from '../config/index.js';
import { _readIdentityJson } from './identity-json-file.js';

/** A chain that passed every check at start. */
export interface AdapterChain {
  /** The chain file, absolute. */
  readonly file: string;
  /** The links as the file holds them, root first: what the announce discloses. */
  readonly links: readonly unknown[];
  /** The chain check's verdict with the chain's own root. */
  readonly verdict: AcceptedChain;
}

/** A chain ending sooner than this after the start is warned about. */
const EXPIRY_WARNING_SECONDS = 7 * 86_400;

const REGISTER = 'xprotocol-adapter register';

/**
 * Loads and checks the chain file of `config.identity.parent_delegation_event` for the adapter
 * whose key is `ownKey`, at `nowSeconds`; `undefined` when none is configured. `ownKey`
 * `undefined` (`validate` before the key file exists) skips the one check that needs it. Throws
 * {@link ConfigError} `CONFIG_INVALID` saying what is wrong and what to do.
 */
export function _loadAdapterChain(
  config: Pick<AdapterConfig, 'file' | 'identity'>,
  ownKey: string | undefined,
  nowSeconds: number,
): AdapterChain | undefined {
  const { parentDelegationEvent: file, parentKey, keyFile } = config.identity;
  if (file === undefined) return undefined;
  const fail = (message: string, path = 'identity.parent_delegation_event'): never => {
    throw new ConfigError('CONFIG_INVALID', [{ file: config.file, line: 0, column: 0, path, message }]);
  };
  const links = _readChainFile(file, fail);
  const issuer = (links[0] as { issuer?: unknown }).issuer;
  const verdict = checkDelegationChain(
    // A malformed issuer is refused by the form phase, before any root is looked at.
    { chain: links, trustedRoots: isKeyString(issuer, 'ed25519') ? [issuer as string] : [], at: nowSeconds },
    nodeSignatures,
  );
  if (!verdict.ok) return fail(`${file}: ${_refusalMessage(verdict, links, nowSeconds)}`);
  const last = `link ${links.length - 1} (${_idPrefix(links[links.length - 1])})`;
  if (ownKey !== undefined && verdict.delegatedKey !== ownKey) {
    fail(
      `${file}: ${last} delegates to ${verdict.delegatedKey}, expected this adapter's key ${ownKey} (identity.key_file ${keyFile}): register this adapter's key with ${REGISTER} --key ${keyFile}`,
    );
  }
  const lastIssuer = (links[links.length - 1] as { issuer: string }).issuer;
  if (parentKey !== undefined && parentKey !== lastIssuer) {
    fail(
      `${parentKey} did not issue the last link of ${file}: ${last} is issued by ${lastIssuer}; expected parent_key to be that key, or a chain whose last link ${parentKey} signed`,
      'identity.parent_key',
    );
  }
  return { file, links, verdict };
}

/**
 * The warning for a chain that ends within 7 days of `nowSeconds`, or `undefined`. Callers that
 * check the chain refuse the adapter once it has ended; a restart with a new chain file mends it.
 */
export function _chainExpiryWarning(chain: AdapterChain, nowSeconds: number): string | undefined {
  const left = chain.verdict.expiresAt - nowSeconds;
  if (left > EXPIRY_WARNING_SECONDS) return undefined;
  return `the delegation chain in ${chain.file} ends at ${_when(chain.verdict.expiresAt)}, in ${_duration(left)}: sign a new one with ${REGISTER} before then (callers that check it refuse this adapter after)`;
}

/** The file's JSON array of links, or a configuration error saying what the file is instead. */
function _readChainFile(file: string, fail: (message: string) => never): unknown[] {
  const value = _readIdentityJson(
    file,
    {
      writtenBy: `the chain file that ${REGISTER} --output wrote`,
      described: 'a chain file as register writes it',
    },
    fail,
  );
  if (!Array.isArray(value) || value.length === 0) {
    const got =
      value === null
        ? 'null'
        : Array.isArray(value)
          ? 'an empty array'
          : typeof value === 'object'
            ? 'an object'
            : `a ${typeof value}`;
    return fail(
      `${file}: expected a chain file (a JSON array of delegations, root first, as register writes it), got ${got}`,
    );
  }
  return value;
}

/** The refusal as an operator reads it: the link, why, the chain check's code, what to do. */
function _refusalMessage(verdict: RefusedChain, links: readonly unknown[], at: number): string {
  if (verdict.link === undefined) return `the chain check refuses it (${verdict.code}): ${verdict.message}`;
  const index = verdict.link.index;
  const link = links[index] as { not_before?: unknown; expires_at?: unknown } | undefined;
  const name = `link ${index}${link === undefined ? '' : ` (${_idPrefix(link)})`}`;
  const checked = `checked at ${_when(at)}`;
  if (verdict.code === 'expired')
    return `${name} expired at ${_when(link?.expires_at as number)}, ${checked}: the chain check refuses it (expired); sign a new one with ${REGISTER}`;
  if (verdict.code === 'not_yet_valid')
    return `${name} is not valid before ${_when(link?.not_before as number)}, ${checked}: the chain check refuses it (not_yet_valid); wait until then, or check this machine's clock`;
  return `${name} is refused (${verdict.code}): ${verdict.message}; make the chain again with ${REGISTER}`;
}

/** The first 8 hex digits of a link's id and an ellipsis, or `no id` for a link without one. */
function _idPrefix(link: unknown): string {
  const id = (link as { id?: unknown } | null)?.id;
  return typeof id === 'string' && /^[0-9a-f]{8}/.test(id) ? `${id.slice(0, 8)}…` : 'no id';
}

/** Unix seconds with their UTC date: `1767225600 (2026-01-01T00:00:00Z)`. */
function _when(seconds: number): string {
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')})`;
}

/** A positive span of seconds in the largest whole unit: `3 days`, `5 hours`, `12 minutes`. */
function _duration(seconds: number): string {
  const [size, unit] =
    seconds >= 86_400 ? [86_400, 'day'] : seconds >= 3600 ? [3600, 'hour'] : [60, 'minute'];
  const count = Math.max(1, Math.round(seconds / size));
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
