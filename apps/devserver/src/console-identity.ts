/**
 * The console's Identity page data (docs/devserver.md, "Identity"): for the adapter and each
 * `xprotocol_sources` entry named by key, its newest announce on the devserver's relay and, when it
 * carries `delegation_chain` (docs/protocol.md §10.3), the chain link by link, its window, and the
 * chain check's verdict (§11.4) against the devserver's trust roots — or that it was not checked.
 * An announce is remote data: every value is passed on as text for the page to render as text.
 * @module
 */
import { checkDelegationChain, verifyEvent, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { RelayPool } from '@xprotocol/relay-client';

/** One link as the page shows it: each value as the announce gave it, in text. */
export interface ChainLinkView {
  index: number;
  issuer: string;
  delegatedKey: string;
  capabilities: string[];
  notBefore: string;
  expiresAt: string;
  onBehalfOf?: string;
  id: string;
}

/** The chain check's verdict, or why it did not run. */
export type ChainVerdictView =
  | { checked: false; reason: string }
  | { checked: true; ok: true; chainId: string; capabilities: string[] }
  | { checked: true; ok: false; code: string; link?: number; message: string };

/** One endpoint's identity. */
export interface EndpointIdentityView {
  /** `the adapter`, or the `xprotocol_sources` entry's name. */
  name: string;
  key: string;
  /** The newest announce that verifies, or undefined when the relay holds none. */
  announce: { id: string; createdAt: number } | undefined;
  /** What was wrong with the announce's content or chain, when something was. */
  problem?: string;
  /** Absent when the announce has no `delegation_chain`. */
  chain?: {
    root: string;
    links: ChainLinkView[];
    /** The latest `not_before` to the earliest `expires_at`, when every link states both as numbers. */
    window: { notBefore: number; expiresAt: number; expired: boolean } | undefined;
    verdict: ChainVerdictView;
  };
}

/** What the Identity page asks for. */
export interface IdentitySource {
  relayUrl: () => string;
  /** The adapter first, then each keyed `xprotocol_sources` entry. */
  endpoints: () => { name: string; key: string }[];
  /** The devserver's trust roots: `access.trusted_issuers` and every `xprotocol_sources[].trust_root`. */
  trustRoots: () => string[];
  /** Unix seconds; the real clock by default. */
  now?: () => number;
}

/** Each endpoint's identity, read from the relay now (at most `timeoutMs` per query). */
export async function endpointIdentities(
  source: IdentitySource,
  timeoutMs = 3_000,
): Promise<{ trustRoots: string[]; endpoints: EndpointIdentityView[] }> {
  const endpoints = source.endpoints();
  const trustRoots = source.trustRoots();
  const now = source.now?.() ?? Math.floor(Date.now() / 1000);
  const pool = await RelayPool.open({ urls: [source.relayUrl()] });
  try {
    const views = await Promise.all(
      endpoints.map(async ({ name, key }) =>
        _view(name, key, await _newestAnnounce(pool, key, timeoutMs), trustRoots, now),
      ),
    );
    return { trustRoots, endpoints: views };
  } finally {
    await pool.close();
  }
}

/** The newest announce by `key` that verifies, once the relay has sent what it stores. */
function _newestAnnounce(pool: RelayPool, key: string, timeoutMs: number): Promise<XpEvent | undefined> {
  const found: XpEvent[] = [];
  let done = false;
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs);
    const sub = pool.subscribe([{ kinds: ['xp.endpoint.announce'], authors: [key] }], {
      onEvent: (event) => {
        if (event.pubkey === key && verifyEvent(event, nodeSignatures).ok) found.push(event);
      },
      onEose: finish,
    });
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub.close();
      resolve(found.sort((a, b) => b.created_at - a.created_at)[0]);
    }
  });
}

const _text = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

function _view(
  name: string,
  key: string,
  announce: XpEvent | undefined,
  trustRoots: string[],
  now: number,
): EndpointIdentityView {
  const base = { name, key, announce: announce && { id: announce.id, createdAt: announce.created_at } };
  if (!announce) return base;
  let chain: unknown;
  try {
    chain = (JSON.parse(announce.content) as { delegation_chain?: unknown }).delegation_chain;
  } catch {
    return { ...base, problem: 'the announce content is not JSON' };
  }
  if (chain === undefined) return base;
  if (!Array.isArray(chain) || chain.length === 0)
    return { ...base, problem: `delegation_chain: expected an array of delegations, got ${_text(chain)}` };
  const links = chain.map((raw, index) => _link(raw, index));
  const notBefores = chain.map((l) => (l as { not_before?: unknown })?.not_before);
  const expiries = chain.map((l) => (l as { expires_at?: unknown })?.expires_at);
  const numeric = [...notBefores, ...expiries].every((n) => typeof n === 'number');
  const window = numeric
    ? {
        notBefore: Math.max(...(notBefores as number[])),
        expiresAt: Math.min(...(expiries as number[])),
        expired: now > Math.min(...(expiries as number[])),
      }
    : undefined;
  return {
    ...base,
    chain: {
      root: links[0]!.issuer,
      links,
      window,
      verdict: _verdict(chain, announce.pubkey, trustRoots, now),
    },
  };
}

function _link(raw: unknown, index: number): ChainLinkView {
  const link = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const capabilities = Array.isArray(link.capabilities)
    ? link.capabilities.map(_text)
    : [_text(link.capabilities)];
  return {
    index,
    issuer: _text(link.issuer),
    delegatedKey: _text(link.delegated_key),
    capabilities,
    notBefore: _text(link.not_before),
    expiresAt: _text(link.expires_at),
    ...(link.on_behalf_of !== undefined && { onBehalfOf: _text(link.on_behalf_of) }),
    id: _text(link.id),
  };
}

function _verdict(chain: unknown[], signer: string, trustRoots: string[], now: number): ChainVerdictView {
  if (trustRoots.length === 0)
    return {
      checked: false,
      reason:
        'not checked: no trust roots (the configuration has no access.trusted_issuers and no xprotocol_sources[].trust_root)',
    };
  const verdict = checkDelegationChain({ chain, trustedRoots: trustRoots, at: now }, nodeSignatures);
  if (!verdict.ok)
    return {
      checked: true,
      ok: false,
      code: verdict.code,
      ...(verdict.link !== undefined && { link: verdict.link.index }),
      message: verdict.message,
    };
  if (verdict.delegatedKey !== signer)
    return {
      checked: true,
      ok: false,
      code: 'not_the_signer',
      link: chain.length - 1,
      message: `the chain vouches for ${verdict.delegatedKey}, not for the announce's key ${signer}`,
    };
  return { checked: true, ok: true, chainId: verdict.chainId, capabilities: [...verdict.capabilities] };
}
