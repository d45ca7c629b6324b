/**
 * The delegation chain check (docs/protocol.md §11.4): given a chain of delegations, root first,
 * the keys trusted as roots, a time and a set of revocations, either the authority the chain
 * gives its last key or the first refusal, with a code and a message naming the link. A pure
 * function: the same input gives the same verdict, byte for byte as canonical JSON. The checks
 * run in four phases — form, links, revocations, time — and only the last two depend on the time
 * and the revocations, so `DelegationChainChecker` memoizes the first two by chain id.
 * @module
 */

import { _idBytes } from './_signed-object.js';
import { canonicalJson } from './canonical-json.js';
import { capabilityCovers } from './capability.js';
import { _checkDelegationForm, _delegationSignatureHolds, type Delegation } from './delegation.js';
import { nobleSignatures } from './ed25519-noble.js';
import { CryptoError } from './errors.js';
import { bytesToHex } from './hex.js';
import { type Ed25519KeyString, isKeyString } from './key-string.js';
import { verifyRevocation } from './revocation.js';
import type { SignatureBackend } from './signature-backend.js';

/** The most links a chain may have: a root and eight keys below it. */
export const MAX_CHAIN_LINKS = 8;
/** The domain string that starts the preimage of a chain id. */
export const CHAIN_DOMAIN = 'xp/1/chain';

/** Why a chain was refused; docs/protocol.md §11.4 lists when each applies, in checking order. */
export type ChainRefusal =
  | 'shape'
  | 'depth'
  | 'id'
  | 'untrusted_root'
  | 'wrong_signer'
  | 'proof_mismatch'
  | 'signature'
  | 'cycle'
  | 'widened'
  | 'on_behalf_of'
  | 'backdated'
  | 'revoked'
  | 'not_yet_valid'
  | 'expired';

/** The link a refusal is about: its index (0 is the root's link) and, once it parsed, its keys. */
export interface ChainLinkRef {
  readonly index: number;
  readonly issuer?: Ed25519KeyString;
  readonly delegatedKey?: Ed25519KeyString;
}

/** Input of {@link checkDelegationChain}. */
export interface ChainCheckInput {
  /** The delegations, root first: link 0 is issued by a trusted root, the last one names the key checked. */
  readonly chain: unknown;
  /** The keys trusted as roots (`ed25519:` key strings); link 0's issuer must be one of them. */
  readonly trustedRoots: readonly string[];
  /** The time of the check, unix seconds: the verifier's own clock, never a time the signer states. */
  readonly at: number;
  /** Revocation objects; one counts only when it verifies and its issuer may revoke the link it names. */
  readonly revocations?: readonly unknown[];
}

/** An accepted chain: what its last key may do, and when. */
export interface AcceptedChain {
  readonly ok: true;
  /** {@link delegationChainId} of the links. */
  readonly chainId: string;
  /** The trusted root that issued link 0. */
  readonly root: Ed25519KeyString;
  /** The key the chain gives authority to: the last link's `delegated_key`. */
  readonly delegatedKey: Ed25519KeyString;
  /** The last link's capabilities (each covered by every link above it). */
  readonly capabilities: readonly string[];
  /** The user the key acts for, when the chain names one. */
  readonly onBehalfOf?: Ed25519KeyString;
  /** The chain's window: the latest `not_before` of its links … */
  readonly notBefore: number;
  /** … to their earliest `expires_at`, both inclusive. */
  readonly expiresAt: number;
  /** The link ids, root first. */
  readonly linkIds: readonly string[];
}

/** A refused chain: the first failure in checking order. */
export interface RefusedChain {
  readonly ok: false;
  readonly code: ChainRefusal;
  /** Names the link (index and keys) and says what was wrong and what was expected. */
  readonly message: string;
  /** Absent only when the chain as a whole is malformed (not an array, or empty). */
  readonly link?: ChainLinkRef;
}

/** The verdict of {@link checkDelegationChain}. */
export type ChainVerdict = AcceptedChain | RefusedChain;

/** @internal The first two phases' result: time- and revocation-independent, hence memoizable. */
export type _WalkResult = Omit<AcceptedChain, 'chainId' | 'linkIds'> | RefusedChain;

/** @internal Where {@link DelegationChainChecker} keeps walk results. */
export interface _WalkMemo {
  get(key: string): _WalkResult | undefined;
  set(key: string, result: _WalkResult): void;
}

interface _Form {
  readonly links: readonly Delegation[];
  readonly idBytes: readonly Uint8Array[];
}

/**
 * The chain id: lowercase hex SHA-256 of the RFC 8785 serialization of
 * `["xp/1/chain", [id of link 0, id of link 1, …]]`.
 */
export function delegationChainId(
  linkIds: readonly string[],
  backend?: Pick<SignatureBackend, 'sha256'>,
): string {
  return bytesToHex(_idBytes(canonicalJson([CHAIN_DOMAIN, [...linkIds]]), backend));
}

/**
 * Checks a delegation chain (docs/protocol.md §11.4) and returns what its last key may do, or the
 * first refusal. Never throws on the chain or the revocations; throws {@link CryptoError}
 * `INVALID_KEY` for a trusted root that is not an `ed25519:` key string and
 * `INVALID_DELEGATION` for an `at` that is not unix seconds (the caller's own mistakes).
 * @example
 * const verdict = checkDelegationChain({ chain, trustedRoots: [orgRoot], at: nowSeconds, revocations });
 * if (verdict.ok && anyCapabilityMatches(verdict.capabilities, required)) serve();
 */
export function checkDelegationChain(
  input: ChainCheckInput,
  backend: SignatureBackend = nobleSignatures,
): ChainVerdict {
  return _checkChain(input, backend, undefined);
}

/** @internal {@link checkDelegationChain} with an optional memo for the first two phases. */
export function _checkChain(
  input: ChainCheckInput,
  backend: SignatureBackend,
  memo: _WalkMemo | undefined,
): ChainVerdict {
  _checkArguments(input);
  const form = _checkForm(input.chain, backend);
  if ('ok' in form) return form;
  const linkIds = form.links.map((link) => link.id);
  const chainId = delegationChainId(linkIds, backend);
  const rootTrusted = input.trustedRoots.includes(form.links[0]!.issuer);
  // The id covers every field but the signature, so the id, the signatures and the one fact
  // taken from the trusted roots determine the walk exactly.
  const key = `${chainId}:${rootTrusted ? 1 : 0}:${form.links.map((link) => link.sig).join('')}`;
  let walked = memo?.get(key);
  if (walked === undefined) {
    walked = _walk(form, rootTrusted, backend);
    memo?.set(key, walked);
  }
  if (!walked.ok) return walked;
  const refusal =
    _revocationRefusal(form.links, input.revocations ?? [], backend) ?? _timeRefusal(form.links, input.at);
  if (refusal) return refusal;
  return { ...walked, chainId, linkIds };
}

function _checkArguments(input: ChainCheckInput): void {
  for (const root of input.trustedRoots) {
    if (!isKeyString(root, 'ed25519')) {
      throw new CryptoError(
        'INVALID_KEY',
        `trustedRoots: expected "ed25519:" followed by 64 lowercase hex digits, got ${JSON.stringify(root)}`,
      );
    }
  }
  if (typeof input.at !== 'number' || !Number.isSafeInteger(input.at) || input.at < 0) {
    throw new CryptoError(
      'INVALID_DELEGATION',
      `at: expected unix seconds (a non-negative safe integer), got ${String(input.at)}`,
    );
  }
}

/** Phase 1: an array of 1 to 8 links, each well-formed and with its recomputed id. */
function _checkForm(chain: unknown, backend: SignatureBackend): _Form | RefusedChain {
  if (!Array.isArray(chain) || chain.length === 0) {
    return {
      ok: false,
      code: 'shape',
      message: `chain: expected an array of 1 to ${MAX_CHAIN_LINKS} delegations, root first, got ${Array.isArray(chain) ? 'an empty array' : chain === null ? 'null' : typeof chain}`,
    };
  }
  if (chain.length > MAX_CHAIN_LINKS) {
    return {
      ok: false,
      code: 'depth',
      message: `link ${MAX_CHAIN_LINKS}: the chain has ${chain.length} links, at most ${MAX_CHAIN_LINKS} are accepted`,
      link: { index: MAX_CHAIN_LINKS },
    };
  }
  const links: Delegation[] = [];
  const idBytes: Uint8Array[] = [];
  for (let i = 0; i < chain.length; i++) {
    const form = _checkDelegationForm(chain[i], backend);
    if (!form.ok) {
      const ref = _ref(i, chain[i]);
      return { ok: false, code: form.code, message: `${_label(ref)}: ${form.message}`, link: ref };
    }
    links.push(form.delegation);
    idBytes.push(form.idBytes);
  }
  return { links, idBytes };
}

/** Phase 2: every link in order, then what the chain gives its last key. */
function _walk(form: _Form, rootTrusted: boolean, backend: SignatureBackend): _WalkResult {
  const { links } = form;
  // Where each key of the chain first appears, for the cycle message.
  const seen = new Map<string, string>([[links[0]!.issuer, 'the root']]);
  for (let i = 0; i < links.length; i++) {
    const refusal =
      _orderRefusal(links, i, rootTrusted) ??
      _signatureRefusal(form, i, backend) ??
      _cycleRefusal(links, i, seen) ??
      _widenedRefusal(links, i) ??
      _onBehalfOfRefusal(links, i) ??
      _backdatedRefusal(links, i);
    if (refusal) return refusal;
  }
  const last = links[links.length - 1]!;
  return {
    ok: true,
    root: links[0]!.issuer,
    delegatedKey: last.delegated_key,
    capabilities: [...last.capabilities],
    ...(last.on_behalf_of === undefined ? {} : { onBehalfOf: last.on_behalf_of }),
    notBefore: Math.max(...links.map((link) => link.not_before)),
    expiresAt: Math.min(...links.map((link) => link.expires_at)),
  };
}

/** The issuer is the trusted root (link 0) or the previous link's delegate, and `proof` names that link. */
function _orderRefusal(
  links: readonly Delegation[],
  i: number,
  rootTrusted: boolean,
): RefusedChain | undefined {
  const link = links[i]!;
  if (i === 0) {
    return rootTrusted
      ? undefined
      : _refuse('untrusted_root', links, i, `its issuer ${link.issuer} is not a trusted root`);
  }
  const previous = links[i - 1]!;
  if (link.issuer !== previous.delegated_key) {
    return _refuse(
      'wrong_signer',
      links,
      i,
      `issued by ${link.issuer}, but link ${i - 1} delegates to ${previous.delegated_key}: each link must be signed by the key the link before it delegates to`,
    );
  }
  if (link.proof !== previous.id) {
    return _refuse(
      'proof_mismatch',
      links,
      i,
      `${link.proof === undefined ? 'has no proof' : `proof is ${link.proof}`}, expected the id of link ${i - 1} (${previous.id})`,
    );
  }
  return undefined;
}

function _signatureRefusal(form: _Form, i: number, backend: SignatureBackend): RefusedChain | undefined {
  const link = form.links[i]!;
  return _delegationSignatureHolds(link, form.idBytes[i]!, backend)
    ? undefined
    : _refuse(
        'signature',
        form.links,
        i,
        `sig is not a valid Ed25519 signature of the id by its issuer ${link.issuer}`,
      );
}

function _cycleRefusal(
  links: readonly Delegation[],
  i: number,
  seen: Map<string, string>,
): RefusedChain | undefined {
  const key = links[i]!.delegated_key;
  const where = key === links[i]!.issuer ? 'its own issuer' : seen.get(key);
  if (where !== undefined) {
    return _refuse('cycle', links, i, `delegates to ${key}, which is already in the chain as ${where}`);
  }
  seen.set(key, `the delegate of link ${i}`);
  return undefined;
}

/** Each capability of a link is covered by one of its issuer's own (the root holds `*`). */
function _widenedRefusal(links: readonly Delegation[], i: number): RefusedChain | undefined {
  if (i === 0) return undefined;
  const held = links[i - 1]!.capabilities;
  const widened = links[i]!.capabilities.find((cap) => !held.some((h) => capabilityCovers(h, cap)));
  return widened === undefined
    ? undefined
    : _refuse(
        'widened',
        links,
        i,
        `capability ${JSON.stringify(widened)} is not covered by its issuer's capabilities (${held.join(', ')}): a delegation can only narrow them`,
      );
}

/**
 * Only a key can start acting for itself (`on_behalf_of` equal to the issuer), and once a chain
 * acts for someone every later link carries the same key.
 */
function _onBehalfOfRefusal(links: readonly Delegation[], i: number): RefusedChain | undefined {
  const link = links[i]!;
  const inherited = i === 0 ? undefined : links[i - 1]!.on_behalf_of;
  if (inherited !== undefined) {
    return link.on_behalf_of === inherited
      ? undefined
      : _refuse(
          'on_behalf_of',
          links,
          i,
          `${link.on_behalf_of === undefined ? 'has no on_behalf_of' : `acts on behalf of ${link.on_behalf_of}`}, but link ${i - 1} acts on behalf of ${inherited}: every later link must carry it unchanged`,
        );
  }
  if (link.on_behalf_of !== undefined && link.on_behalf_of !== link.issuer) {
    return _refuse(
      'on_behalf_of',
      links,
      i,
      `acts on behalf of ${link.on_behalf_of}, which did not sign it: only a key can delegate on its own behalf (on_behalf_of must be the issuer)`,
    );
  }
  return undefined;
}

function _backdatedRefusal(links: readonly Delegation[], i: number): RefusedChain | undefined {
  if (i === 0) return undefined;
  const link = links[i]!;
  const own = links[i - 1]!.not_before;
  return link.not_before >= own
    ? undefined
    : _refuse(
        'backdated',
        links,
        i,
        `not_before ${_when(link.not_before)} is before its issuer's own not_before ${_when(own)} (link ${i - 1}): a delegation cannot give authority from a time its issuer did not hold it`,
      );
}

/**
 * Phase 3: the first link (root first) that a revocation withdraws. A revocation counts when it
 * verifies and its issuer signed that link or a link above it; any other is ignored.
 */
function _revocationRefusal(
  links: readonly Delegation[],
  revocations: readonly unknown[],
  backend: SignatureBackend,
): RefusedChain | undefined {
  const ids = new Set(links.map((link) => link.id));
  // Only revocations naming a link of this chain are verified: the set may be large.
  const candidates: { readonly revoked: string; readonly value: unknown }[] = [];
  for (const value of revocations) {
    const revoked = _read(value, 'revoked');
    if (typeof revoked === 'string' && ids.has(revoked)) candidates.push({ revoked, value });
  }
  for (let i = 0; i < links.length; i++) {
    const eligible = links.slice(0, i + 1).map((link) => link.issuer);
    for (const candidate of candidates) {
      if (candidate.revoked !== links[i]!.id) continue;
      const verdict = verifyRevocation(candidate.value, backend);
      if (!verdict.ok || !eligible.includes(verdict.revocation.issuer)) continue;
      return _refuse(
        'revoked',
        links,
        i,
        `revoked by ${verdict.revocation.issuer} (revocation ${verdict.revocation.id})`,
      );
    }
  }
  return undefined;
}

/** Phase 4: every link valid at `at` (`not_before` ≤ at ≤ `expires_at`), root first. */
function _timeRefusal(links: readonly Delegation[], at: number): RefusedChain | undefined {
  for (let i = 0; i < links.length; i++) {
    const link = links[i]!;
    if (at < link.not_before) {
      return _refuse(
        'not_yet_valid',
        links,
        i,
        `not valid before ${_when(link.not_before)}; checked at ${_when(at)}`,
      );
    }
    if (at > link.expires_at) {
      return _refuse('expired', links, i, `expired at ${_when(link.expires_at)}; checked at ${_when(at)}`);
    }
  }
  return undefined;
}

/** A field of a received value, or undefined when it has none or reading it throws (a hostile getter). */
function _read(value: unknown, field: string): unknown {
  try {
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[field]
      : undefined;
  } catch {
    return undefined;
  }
}

/** The link's index and whichever of its keys are well-formed. */
function _ref(index: number, link: unknown): ChainLinkRef {
  const issuer = _read(link, 'issuer');
  const delegatedKey = _read(link, 'delegated_key');
  return {
    index,
    ...(isKeyString(issuer, 'ed25519') ? { issuer: issuer as Ed25519KeyString } : {}),
    ...(isKeyString(delegatedKey, 'ed25519') ? { delegatedKey: delegatedKey as Ed25519KeyString } : {}),
  };
}

/** `link 1 (ed25519:… → ed25519:…)`, with whichever keys are known. */
function _label(ref: ChainLinkRef): string {
  if (ref.issuer === undefined && ref.delegatedKey === undefined) return `link ${ref.index}`;
  return `link ${ref.index} (${ref.issuer ?? '?'} → ${ref.delegatedKey ?? '?'})`;
}

function _refuse(code: ChainRefusal, links: readonly Delegation[], i: number, why: string): RefusedChain {
  const ref = _ref(i, links[i]);
  return { ok: false, code, message: `${_label(ref)}: ${why}`, link: ref };
}

/** Unix seconds with their UTC date, e.g. `1767225600 (2026-01-01T00:00:00Z)`. */
function _when(seconds: number): string {
  // Dates stop at 8.64e15 ms; later (absurd but valid) times are written as seconds alone.
  if (seconds > 8.64e12) return String(seconds);
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')})`;
}
