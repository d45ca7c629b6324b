/**
 * docs/protocol.md is enough to take part in delegated identity from outside: a short reader and
 * writer, written from §2.3, §3, §5, §6.1, §6.3, §10.3, §11.1–§11.4 and §11.7 alone and sharing no
 * code with this repository's packages for the parts under test (canonicalize@4 for RFC 8785,
 * @noble/hashes, @noble/curves and @noble/ciphers for the primitives), (a) checks the
 * `delegation_chain` of an announce the real endpoint code publishes on a real relay, and (b) builds
 * a whole request — the event, its sealed content and its `delegation` tag — that the real endpoint
 * serves, and reads the sealed answer. The project's code only signs the announce's chain and runs
 * the endpoint; the relay connection is the transport, not under test.
 */

import { chacha20 } from '@noble/ciphers/chacha.js';
import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { expand } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, randomBytes } from '@noble/hashes/utils.js';
import { signDelegation, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import canonicalize from 'canonicalize';
import { afterEach, describe, expect, it } from 'vitest';
import { Announcer } from '../src/index.js';
import { testAnnouncePayload } from './support/announce.js';
import { type Stack, startStack } from './support/stack.js';

// ---- The independent reader and writer. ----

type Obj = Record<string, unknown>;
const utf8 = (text: string) => new TextEncoder().encode(text);
const jcs = (value: unknown) => canonicalize(value) as string;
const hashHex = (text: string) => bytesToHex(sha256(utf8(text)));
const keyBytes = (key: unknown, scheme: string) => hexToBytes(String(key).slice(scheme.length + 1));

/** A key pair of each kind (§1, §5): 32 random secret bytes each. */
function newParty() {
  const edSecret = randomBytes(32);
  const xSecret = randomBytes(32);
  return {
    edSecret,
    xSecret,
    ed: `ed25519:${bytesToHex(ed25519.getPublicKey(edSecret))}`,
    x: `x25519:${bytesToHex(x25519.getPublicKey(xSecret))}`,
  };
}
type Party = ReturnType<typeof newParty>;

/** §2.3 and §3: the id from the fields, the signature of the 32 id bytes. */
function eventVerifies(event: Obj): boolean {
  const id = hashHex(
    jcs(['xp/1/event', event.pubkey, event.created_at, event.kind, event.tags, event.content]),
  );
  return (
    id === event.id &&
    ed25519.verify(hexToBytes(String(event.sig)), hexToBytes(id), keyBytes(event.pubkey, 'ed25519'))
  );
}

function signedEvent(author: Party, kind: string, tags: string[][], content: string): Obj {
  const created_at = Math.floor(Date.now() / 1000);
  const id = hashHex(jcs(['xp/1/event', author.ed, created_at, kind, tags, content]));
  const sig = bytesToHex(ed25519.sign(hexToBytes(id), author.edSecret));
  return { id, pubkey: author.ed, created_at, kind, tags, content, sig };
}

/** §5: HMAC-SHA256(salt = SHA-256("xp/1/conv" ‖ lower ‖ higher), X25519 shared secret). */
function conversationKeyOf(mine: Party, theirEd: string, theirX: string): Uint8Array {
  const [lower, higher] = [keyBytes(mine.ed, 'ed25519'), keyBytes(theirEd, 'ed25519')].sort((a, b) =>
    Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  const salt = sha256(concatBytes(utf8('xp/1/conv'), lower!, higher!));
  return hmac(sha256, salt, x25519.getSharedSecret(mine.xSecret, keyBytes(theirX, 'x25519')));
}

function paddedLength(len: number): number {
  if (len <= 32) return 32;
  const nextPower = 2 ** (Math.floor(Math.log2(len - 1)) + 1);
  const chunk = nextPower <= 256 ? 32 : nextPower / 8;
  return chunk * (Math.floor((len - 1) / chunk) + 1);
}

function messageKeys(key: Uint8Array, nonce: Uint8Array) {
  const okm = expand(sha256, key, nonce, 76);
  return { chacha: okm.slice(0, 32), chachaNonce: okm.slice(32, 44), mac: okm.slice(44, 76) };
}

/** §6.1, version 2 (plaintexts up to 65,535 bytes). */
function encrypt(plaintext: string, key: Uint8Array): string {
  const bytes = utf8(plaintext);
  const nonce = randomBytes(32);
  const keys = messageKeys(key, nonce);
  const padded = new Uint8Array(2 + paddedLength(bytes.length));
  padded[0] = bytes.length >> 8;
  padded[1] = bytes.length & 0xff;
  padded.set(bytes, 2);
  const ciphertext = chacha20(keys.chacha, keys.chachaNonce, padded);
  const mac = hmac(sha256, keys.mac, concatBytes(nonce, ciphertext));
  return Buffer.from(concatBytes(new Uint8Array([2]), nonce, ciphertext, mac)).toString('base64');
}

function decrypt(payload: string, key: Uint8Array): string {
  const data = new Uint8Array(Buffer.from(payload, 'base64'));
  if (data[0] !== 2) throw new Error(`version ${data[0]}: this reader has only version 2`);
  const nonce = data.slice(1, 33);
  const ciphertext = data.slice(33, -32);
  const keys = messageKeys(key, nonce);
  const mac = hmac(sha256, keys.mac, concatBytes(nonce, ciphertext));
  if (bytesToHex(mac) !== bytesToHex(data.slice(-32))) throw new Error('invalid MAC');
  const padded = chacha20(keys.chacha, keys.chachaNonce, ciphertext);
  const len = (padded[0]! << 8) | padded[1]!;
  return new TextDecoder().decode(padded.slice(2, 2 + len));
}

/** §11.1: the id of a delegation, and one signed by `issuer`. */
function delegationId(d: Obj): string {
  return hashHex(
    jcs([
      'xp/1/delegate',
      d.issuer,
      d.delegated_key,
      d.capabilities,
      d.on_behalf_of ?? null,
      d.not_before,
      d.expires_at,
      d.nonce,
      d.proof ?? null,
    ]),
  );
}

function delegate(issuer: Party, to: string, capabilities: string[], proof?: string): Obj {
  const now = Math.floor(Date.now() / 1000);
  const link: Obj = {
    kind: 'xp.key.delegate',
    issuer: issuer.ed,
    delegated_key: to,
    capabilities,
    not_before: now - 60,
    expires_at: now + 3600,
    nonce: bytesToHex(randomBytes(16)),
    ...(proof !== undefined && { proof }),
  };
  const id = delegationId(link);
  return { ...link, id, sig: bytesToHex(ed25519.sign(hexToBytes(id), issuer.edSecret)) };
}

/** §11.4 `covers`: `*`, equal, or a `.*` prefix. */
const covers = (h: string, c: string) =>
  h === '*' || h === c || (h.endsWith('.*') && c.startsWith(h.slice(0, -1)));

const FIELDS = [
  'kind',
  'issuer',
  'delegated_key',
  'capabilities',
  'not_before',
  'expires_at',
  'nonce',
  'id',
  'sig',
];

/**
 * §11.4 with the given roots at `at`, no revocations: the refusal code, or the accepted chain's
 * last key and window. Only what an endpoint's own chain needs to be checked by a caller.
 */
function chainCheck(chain: unknown, roots: string[], at: number) {
  if (!Array.isArray(chain) || chain.length === 0) return { code: 'shape' };
  if (chain.length > 8) return { code: 'depth' };
  for (const link of chain as Obj[]) {
    const keys = Object.keys(link ?? {});
    if (
      FIELDS.some((f) => !keys.includes(f)) ||
      keys.some((k) => !FIELDS.includes(k) && k !== 'proof' && k !== 'on_behalf_of')
    )
      return { code: 'shape' };
    if (delegationId(link) !== link.id) return { code: 'id' };
  }
  const links = chain as Obj[];
  const seen = [String(links[0]!.issuer)];
  for (const [i, link] of links.entries()) {
    const above = links[i - 1];
    if (i === 0 ? !roots.includes(String(link.issuer)) : link.issuer !== above!.delegated_key)
      return { code: i === 0 ? 'untrusted_root' : 'wrong_signer' };
    if (above && link.proof !== above.id) return { code: 'proof_mismatch' };
    if (
      !ed25519.verify(
        hexToBytes(String(link.sig)),
        hexToBytes(String(link.id)),
        keyBytes(link.issuer, 'ed25519'),
      )
    )
      return { code: 'signature' };
    if (seen.includes(String(link.delegated_key))) return { code: 'cycle' };
    seen.push(String(link.delegated_key));
    const held = above?.capabilities as string[] | undefined;
    if (held && !(link.capabilities as string[]).every((c) => held.some((h) => covers(h, c))))
      return { code: 'widened' };
    if (above && (link.not_before as number) < (above.not_before as number)) return { code: 'backdated' };
  }
  const notBefore = Math.max(...links.map((l) => l.not_before as number));
  const expiresAt = Math.min(...links.map((l) => l.expires_at as number));
  if (at < notBefore) return { code: 'not_yet_valid' };
  if (at > expiresAt) return { code: 'expired' };
  return { code: undefined, delegatedKey: String(links.at(-1)!.delegated_key), notBefore, expiresAt };
}

/** §11.3's chain id, and §11.7's tag: the chain in RFC 8785, sealed like the content. */
function delegationTag(chain: Obj[], key: Uint8Array): string[] {
  const chainId = hashHex(jcs(['xp/1/chain', chain.map((link) => link.id)]));
  return ['delegation', chainId, encrypt(jcs(chain), key)];
}

// ---- Against the real endpoint on a real relay. ----

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const READ = 'com.test.fs.read_text_file';

/** The newest event matching `filter` on the stack's relay, within 10 s. */
function firstEvent(s: Stack, filter: Record<string, unknown>): Promise<Obj | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), 10_000);
    const sub = s.clientPool.subscribe([filter], { onEvent: (event) => done(event as unknown as Obj) });
    function done(event: Obj | undefined) {
      clearTimeout(timer);
      sub.close();
      resolve(event);
    }
  });
}

/** The request, written here from §6.3 and §11.7, sent through the relay; the answer opened here. */
async function callWithChain(s: Stack, caller: Party, chain: Obj[], endpointX: string) {
  const key = conversationKeyOf(caller, s.adapter.keys.ed25519, endpointX);
  const now = Math.floor(Date.now() / 1000);
  const request = signedEvent(
    caller,
    READ,
    [
      ['p', s.adapter.keys.ed25519],
      ['x25519', caller.x],
      delegationTag(chain, key),
      ['expiration', String(now + 60)],
    ],
    encrypt(jcs({ path: `${s.dir}/hello.txt` }), key),
  );
  const answer = firstEvent(s, { '#e': [request.id], authors: [s.adapter.keys.ed25519] });
  await new Promise((r) => setTimeout(r, 100));
  await s.clientPool.publish(request as unknown as XpEvent);
  const event = await answer;
  if (!event) return { kind: 'no answer', payload: undefined };
  expect(eventVerifies(event)).toBe(true);
  return { kind: event.kind, payload: JSON.parse(decrypt(String(event.content), key)) as Obj };
}

describe('delegated identity, from docs/protocol.md alone', () => {
  it("reads an announce's delegation_chain and has a delegation tag served by the real endpoint", async () => {
    const root = newParty();
    stack = await startStack({
      access: {
        default: 'deny',
        grants: [{ key: root.ed, capabilities: ['com.test.fs.*'] }],
        trustedIssuers: [root.ed],
      },
    });
    const s = stack;

    // (a) The project signs the endpoint's chain and publishes its announce; this reader checks it.
    const now = Math.floor(Date.now() / 1000);
    const chainFile = [
      signDelegation(
        {
          delegated_key: s.adapter.keys.ed25519,
          capabilities: ['com.test.*'],
          not_before: now - 60,
          expires_at: now + 3600,
        },
        root.edSecret,
        nodeSignatures,
      ),
    ];
    await new Announcer({
      pool: s.adapterPool,
      identity: s.adapter,
      payload: () => ({ ...testAnnouncePayload(s.adapter, [s.relay.url], 'A'), delegation_chain: chainFile }),
      signatures: nodeSignatures,
    }).publish();
    const announce = await firstEvent(s, {
      kinds: ['xp.endpoint.announce'],
      authors: [s.adapter.keys.ed25519],
    });
    expect(announce && eventVerifies(announce)).toBe(true);
    const payload = JSON.parse(String(announce!.content)) as Obj;
    const xTag = (announce!.tags as string[][]).find((t) => t[0] === 'x25519')?.[1];
    expect(xTag).toBe(payload.x25519);
    const chain = payload.delegation_chain as Obj[];
    expect(chain.length).toBeGreaterThanOrEqual(1);
    expect(chain.length).toBeLessThanOrEqual(8);
    const verdict = chainCheck(chain, [String(chain[0]!.issuer)], Math.floor(Date.now() / 1000));
    expect(verdict).toMatchObject({ code: undefined, delegatedKey: announce!.pubkey });
    // The same reader refuses what it must: a changed capability breaks the id, a foreign root is not trusted.
    expect(chainCheck([{ ...chain[0]!, capabilities: ['*'] }], [String(chain[0]!.issuer)], now).code).toBe(
      'id',
    );
    expect(chainCheck(chain, [newParty().ed], now).code).toBe('untrusted_root');

    // (b) A caller with no grant, under root → department → caller, written and sealed here.
    const department = newParty();
    const caller = newParty();
    const top = delegate(root, department.ed, ['com.test.fs.*']);
    const own = delegate(department, caller.ed, ['com.test.fs.read'], String(top.id));
    expect(chainCheck([top, own], [root.ed], now)).toMatchObject({
      code: undefined,
      delegatedKey: caller.ed,
    });
    const served = await callWithChain(s, caller, [top, own], String(payload.x25519));
    expect(served.kind).toBe(`${READ}.result`);
    expect(JSON.stringify(served.payload)).toContain('hello from the filesystem');

    // The control: a link that widens its issuer's capabilities is refused, and named.
    const widened = delegate(department, caller.ed, ['com.test.*'], String(top.id));
    const refused = await callWithChain(s, caller, [top, widened], String(payload.x25519));
    expect(refused.kind).toBe('xp.error');
    expect(refused.payload).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
      details: { chain_code: 'widened', chain_link: 1 },
    });
  });
});
