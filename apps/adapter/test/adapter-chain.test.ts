/**
 * The adapter's own delegation chain, loaded at start (docs/config.md, `identity`): the file named
 * by `identity.parent_delegation_event` must parse as a chain file, check with its own link 0
 * issuer as root at the current time, end with the adapter's key, and — with
 * `identity.parent_key` — be issued last by that key. Each failure is a configuration error naming
 * the file, the link (index and id prefix), why, and what to do; a chain that ends within 7 days
 * gets a warning. Keys and links are made here with `@xprotocol/crypto`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Delegation, generateIdentity, type Identity, signDelegation } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/index.js';
import { _chainExpiryWarning, _loadAdapterChain } from '../src/runtime/adapter-chain.js';

const NOW = 1_780_000_000;
const DAY = 86_400;
const dir = mkdtempSync(join(tmpdir(), 'xp-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const root = generateIdentity();
const dept = generateIdentity();
const adapter = generateIdentity();
const other = generateIdentity();

/** A link from `issuer` to `delegate`, under `proof`. */
function link(
  issuer: Identity,
  delegate: Identity,
  options: { notBefore?: number | undefined; expiresAt?: number | undefined; proof?: string } = {},
): Delegation {
  return signDelegation(
    {
      delegated_key: delegate.keys.ed25519,
      capabilities: ['com.acme.*'],
      not_before: options.notBefore ?? NOW - DAY,
      expires_at: options.expiresAt ?? NOW + 365 * DAY,
      proof: options.proof,
    },
    issuer.ed25519.secretKey,
    nodeSignatures,
  );
}

/** root → dept → `last` (the adapter by default); `expiresAt` for the second link. */
function chain(options: { last?: Identity; expiresAt?: number; notBefore?: number } = {}): Delegation[] {
  const first = link(root, dept);
  return [
    first,
    link(dept, options.last ?? adapter, {
      proof: first.id,
      expiresAt: options.expiresAt,
      notBefore: options.notBefore,
    }),
  ];
}

let files = 0;
function file(text: string): string {
  const path = join(dir, `chain-${files++}.json`);
  writeFileSync(path, text);
  return path;
}

/** Loads `chainFile` as adapter `adapter`'s chain, with `parentKey` when given. */
function load(chainFile: string, parentKey?: string, ownKey = adapter.keys.ed25519) {
  return _loadAdapterChain(
    {
      file: '/etc/xp/adapter.yml',
      identity: {
        keyFile: '/etc/xp/adapter.key',
        displayName: 'B',
        parentKey,
        parentDelegationEvent: chainFile,
      },
    },
    ownKey,
    NOW,
  );
}

/** The one-line message of the ConfigError `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    return (error as ConfigError).message;
  }
  throw new Error('expected a configuration error, but the chain loaded');
}

describe('the adapter chain loader', () => {
  it('loads a valid chain: its links as they are, its root, capabilities and window', () => {
    const links = chain();
    const loaded = load(file(JSON.stringify(links, null, 2)), dept.keys.ed25519);
    expect(loaded?.links).toEqual(links);
    expect(loaded?.verdict).toMatchObject({
      ok: true,
      root: root.keys.ed25519,
      delegatedKey: adapter.keys.ed25519,
      capabilities: ['com.acme.*'],
      expiresAt: NOW + 365 * DAY,
    });
  });

  it('loads nothing when no chain file is configured', () => {
    expect(
      _loadAdapterChain(
        { file: '/etc/xp/adapter.yml', identity: { keyFile: '/k', displayName: 'B' } },
        adapter.keys.ed25519,
        NOW,
      ),
    ).toBeUndefined();
  });

  it('a file that is missing, not JSON or not a chain file', () => {
    const missing = join(dir, 'missing.json');
    expect(refusal(() => load(missing))).toBe(
      `/etc/xp/adapter.yml: identity.parent_delegation_event: cannot read ${missing}: no such file; expected the chain file that xprotocol-adapter register --output wrote`,
    );
    const text = file('not json');
    expect(refusal(() => load(text))).toMatch(
      new RegExp(
        `^/etc/xp/adapter.yml: identity.parent_delegation_event: ${text}: expected JSON \\(a chain file as register writes it\\), got text that does not parse \\(.+\\)$`,
      ),
    );
    const object = file('{"kind":"xp.key.delegate"}');
    expect(refusal(() => load(object))).toBe(
      `/etc/xp/adapter.yml: identity.parent_delegation_event: ${object}: expected a chain file (a JSON array of delegations, root first, as register writes it), got an object`,
    );
  });

  it('an expired link names its index, its id and what to do', () => {
    const links = chain({ expiresAt: NOW - 10 });
    const path = file(JSON.stringify(links));
    expect(refusal(() => load(path))).toBe(
      `/etc/xp/adapter.yml: identity.parent_delegation_event: ${path}: link 1 (${links[1]!.id.slice(0, 8)}…) expired at ${NOW - 10} (${new Date((NOW - 10) * 1000).toISOString().replace('.000Z', 'Z')}), checked at ${NOW} (${new Date(NOW * 1000).toISOString().replace('.000Z', 'Z')}): the chain check refuses it (expired); sign a new one with xprotocol-adapter register`,
    );
  });

  it('a link not valid yet, and links out of order', () => {
    const early = chain({ notBefore: NOW + DAY });
    const path = file(JSON.stringify(early));
    expect(refusal(() => load(path))).toMatch(
      new RegExp(
        `${path}: link 1 \\(${early[1]!.id.slice(0, 8)}…\\) is not valid before ${NOW + DAY} .*\\(not_yet_valid\\); wait until then, or check this machine's clock`,
      ),
    );
    const reversed = file(JSON.stringify([...chain()].reverse()));
    expect(refusal(() => load(reversed))).toMatch(
      /link 1 \([0-9a-f]{8}…\) is refused \(wrong_signer\): .*each link must be signed by the key the link before it delegates to; make the chain again with xprotocol-adapter register/,
    );
  });

  it('a chain for another key names both keys and the key file', () => {
    const links = chain({ last: other });
    const path = file(JSON.stringify(links));
    expect(refusal(() => load(path))).toBe(
      `/etc/xp/adapter.yml: identity.parent_delegation_event: ${path}: link 1 (${links[1]!.id.slice(0, 8)}…) delegates to ${other.keys.ed25519}, expected this adapter's key ${adapter.keys.ed25519} (identity.key_file /etc/xp/adapter.key): register this adapter's key with xprotocol-adapter register --key /etc/xp/adapter.key`,
    );
  });

  it('a parent_key that did not issue the last link', () => {
    const links = chain();
    const path = file(JSON.stringify(links));
    expect(refusal(() => load(path, other.keys.ed25519))).toBe(
      `/etc/xp/adapter.yml: identity.parent_key: ${other.keys.ed25519} did not issue the last link of ${path}: link 1 (${links[1]!.id.slice(0, 8)}…) is issued by ${dept.keys.ed25519}; expected parent_key to be that key, or a chain whose last link ${other.keys.ed25519} signed`,
    );
  });

  it('warns when the chain ends within 7 days, and not before', () => {
    const soon = load(file(JSON.stringify(chain({ expiresAt: NOW + 3 * DAY }))))!;
    expect(_chainExpiryWarning(soon, NOW)).toMatch(
      /^the delegation chain in .*chain-\d+\.json ends at \d+ \(.*\), in 3 days: sign a new one with xprotocol-adapter register before then \(callers that check it refuse this adapter after\)$/,
    );
    const later = load(file(JSON.stringify(chain({ expiresAt: NOW + 8 * DAY }))))!;
    expect(_chainExpiryWarning(later, NOW)).toBeUndefined();
  });
});
