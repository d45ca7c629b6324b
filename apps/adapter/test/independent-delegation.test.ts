// docs/protocol.md §11 is enough for a second implementation of delegation: the independent client
// of test/independent/ (node:crypto and `ws`, nothing of this repository) makes delegations,
// revocations, chain ids and the `delegation` tag from the document alone, reproduces the §11.5
// vectors and the document's own examples byte for byte, then presents its chains to a real
// adapter bin (wrapping a real MCP server) through the real relay: served within the chain, refused
// with the document's codes outside it, and refused REVOKED right after it publishes a revocation
// on the relay. Only processes are started with this repository's test helpers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainId,
  delegationPreimage,
  delegationTag,
  makeDelegation,
  makeRevocation,
  revocationEvent,
} from './independent/delegation.mjs';
import { ed25519FromSeed } from './independent/ed25519.mjs';
import { newIdentity, nowSeconds, type StrictClient } from './independent/strict-client.mjs';
import { readToolResult } from './independent/tool-call.mjs';
import { conversationKey } from './independent/x25519.mjs';
import { readXpError } from './independent/xp-error.mjs';
import { startIndependentTarget } from './support/independent-target.js';
import { FS_SERVER, Processes } from './support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PROTOCOL = readFileSync(join(ROOT, 'docs', 'protocol.md'), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: vector files are untyped JSON
type Any = any;
const VECTORS: Any = JSON.parse(
  readFileSync(join(ROOT, 'testdata', 'vectors', 'xp-delegation.json'), 'utf8'),
);
/** The block after `<!-- delegation-<what>: name -->` in docs/protocol.md §11. */
const docBlock = (what: 'example' | 'preimage', name: string) => {
  const after = PROTOCOL.split(`<!-- delegation-${what}: ${name} -->\n\`\`\``)[1];
  if (!after) throw new Error(`docs/protocol.md has no delegation-${what} ${name}`);
  return after.slice(after.indexOf('\n') + 1).split('\n```')[0]!;
};
const keyOf = (name: string) => ed25519FromSeed(Buffer.from(VECTORS.keys[name].secret, 'hex'));
/** The fields a signer chooses, from a vector's delegation (everything but kind, issuer, id, sig). */
const chosen = (d: Any) => {
  const { kind: _kind, issuer: _issuer, id: _id, sig: _sig, ...fields } = d;
  return fields;
};

describe('testdata/vectors/xp-delegation.json and docs/protocol.md §11, by the independent client', () => {
  it('derives the vector keys from their seeds (§11.5)', () => {
    for (const name of Object.keys(VECTORS.keys))
      expect(keyOf(name).publicKey, name).toBe(VECTORS.keys[name].public);
  });

  it('makes the two links of the valid chain byte for byte: preimage, id and signature (§11.1)', () => {
    const issuers: Record<string, string> = { 'root-department': 'root', 'department-adapter': 'department' };
    for (const vector of VECTORS.preimages.filter((p: Any) => p.name in issuers)) {
      expect(delegationPreimage(vector.object)).toBe(vector.preimage);
      const made = makeDelegation(keyOf(issuers[vector.name]!), chosen(vector.object));
      // Ed25519 signatures are deterministic (RFC 8032): the same key and id give the same sig.
      expect(made).toEqual(vector.object);
      expect(made.id).toBe(vector.id);
    }
  });

  it('makes the revocation byte for byte (§11.2)', () => {
    const vector = VECTORS.preimages.find((p: Any) => p.name === 'revocation');
    const signer = Object.keys(VECTORS.keys).find((n) => VECTORS.keys[n].public === vector.object.issuer)!;
    expect(makeRevocation(keyOf(signer), vector.object.revoked, vector.object.created_at)).toEqual(
      vector.object,
    );
  });

  it('computes the chain id of every accepted case (§11.3)', () => {
    const accepted = VECTORS.cases.filter((c: Any) => c.expect.ok);
    expect(accepted.length).toBeGreaterThanOrEqual(5);
    for (const c of accepted) expect(chainId(c.chain), c.name).toBe(c.expect.chain_id);
  });

  it("reproduces the document's examples and their preimages (§11.1, §11.2)", () => {
    const link = JSON.parse(docBlock('example', 'department-adapter'));
    expect(delegationPreimage(link)).toBe(docBlock('preimage', 'department-adapter'));
    expect(makeDelegation(keyOf('department'), chosen(link))).toEqual(link);
    const revocation = JSON.parse(docBlock('example', 'revocation'));
    expect(makeRevocation(keyOf('department'), revocation.revoked, revocation.created_at)).toEqual(
      revocation,
    );
  });
});

describe('chains presented to a real adapter bin through the real relay (§11.7)', () => {
  const procs = new Processes();
  const me = newIdentity();
  const root = newIdentity().ed25519;
  const department = newIdentity().ed25519;
  let client: StrictClient;
  let endpoint: { ed25519: string; x25519: string };
  const hello = () => ({ path: join(procs.dir, 'hello.txt') });

  beforeAll(async () => {
    procs.file('hello.txt', 'hello under an independent chain\n');
    // The endpoint trusts the organisation's root and grants it the namespace; the caller has no
    // grant of its own. Capabilities by class: read_text_file is `read`, write_file is `write`.
    ({ client, endpoint } = await startIndependentTarget(
      procs,
      me,
      `mcp_sources:
  - name: files
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.files
access:
  default: deny
  trusted_issuers: [${root.publicKey}]
  grants:
    - key: ${root.publicKey}
      capabilities: [com.test.files.*]
`,
    ));
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await procs.close();
  });

  /** A link valid from a minute ago for an hour. */
  const link = (issuer: typeof root, delegatedKey: string, capabilities: string[], proof?: string): Any =>
    makeDelegation(issuer, {
      delegated_key: delegatedKey,
      capabilities,
      not_before: nowSeconds() - 60,
      expires_at: nowSeconds() + 3600,
      ...(proof !== undefined && { proof }),
    });
  /** The tag of `chain`, encrypted under this caller's conversation key with the endpoint (§5). */
  const tagOf = (chain: Any[]) =>
    delegationTag(
      chain,
      conversationKey(me.x25519.privateKey, endpoint.x25519, me.ed25519.publicKey, endpoint.ed25519),
    );
  const call = (kind: string, payload: unknown, extraTags: string[][] = []) =>
    client.sealedCall(endpoint, { kind, payload, extraTags }, 20_000);
  const refusal = async (kind: string, payload: unknown, extraTags: string[][]) => {
    const { answer, payload: body } = await call(kind, payload, extraTags);
    expect(answer.kind).toBe('xp.error');
    return readXpError(body);
  };

  it('without a chain, a key with no grant is refused AUTHORIZATION_INSUFFICIENT', async () => {
    expect(await refusal('com.test.files.read_text_file', hello(), [])).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
    });
  });

  it('with a chain from the trusted root that covers the call, it is served', async () => {
    const chain = [link(root, me.ed25519.publicKey, ['com.test.files.read'])];
    const { answer, payload } = await call('com.test.files.read_text_file', hello(), [tagOf(chain)]);
    expect(answer.kind).toBe('com.test.files.read_text_file.result');
    expect(readToolResult(payload).content[0]?.text).toBe('hello under an independent chain\n');
  });

  it('a two-link chain is served; a call outside its capabilities is refused', async () => {
    const first = link(root, department.publicKey, ['com.test.files.read', 'com.test.files.write']);
    const chain = [first, link(department, me.ed25519.publicKey, ['com.test.files.read'], first.id)];
    const { answer } = await call('com.test.files.read_text_file', hello(), [tagOf(chain)]);
    expect(answer.kind).toBe('com.test.files.read_text_file.result');
    const write = { path: join(procs.dir, 'no.txt'), content: 'must not be written' };
    expect(await refusal('com.test.files.write_file', write, [tagOf(chain)])).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
      details: { required_capability: 'com.test.files.write' },
    });
  });

  it('refuses with the codes of §11.4 and §11.7: widened, untrusted root, not the signer, tag', async () => {
    const first = link(root, department.publicKey, ['com.test.files.read']);
    const widened = [first, link(department, me.ed25519.publicKey, ['com.test.files.*'], first.id)];
    expect(await refusal('com.test.files.read_text_file', hello(), [tagOf(widened)])).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
      details: { chain_code: 'widened', chain_link: 1 },
    });
    const stranger = [link(department, me.ed25519.publicKey, ['com.test.files.read'])];
    expect(await refusal('com.test.files.read_text_file', hello(), [tagOf(stranger)])).toMatchObject({
      details: { chain_code: 'untrusted_root', chain_link: 0 },
    });
    // A valid chain for another key: it vouches for the department, not for the signer.
    const forOther = [link(root, department.publicKey, ['com.test.files.read'])];
    expect(await refusal('com.test.files.read_text_file', hello(), [tagOf(forOther)])).toMatchObject({
      details: { chain_code: 'not_the_signer' },
    });
    // A tag whose clear chain id is not its chain's.
    const good = [link(root, me.ed25519.publicKey, ['com.test.files.read'])];
    const [name, , ciphertext] = tagOf(good);
    const mislabelled = [name!, '0'.repeat(64), ciphertext!];
    expect(await refusal('com.test.files.read_text_file', hello(), [mislabelled])).toMatchObject({
      details: { chain_code: 'tag' },
    });
  });

  it('a revocation the root publishes on the relay refuses the very next call REVOKED (§11.2, §11.7)', async () => {
    const chain = [link(root, me.ed25519.publicKey, ['com.test.files.read'])];
    const served = await call('com.test.files.read_text_file', hello(), [tagOf(chain)]);
    expect(served.answer.kind).toBe('com.test.files.read_text_file.result');
    const now = nowSeconds();
    const revocation = makeRevocation(root, chain[0].id, now);
    const published = await client.publish(revocationEvent(root, revocation, now, now + 7200));
    expect(published).toMatchObject({ accepted: true });
    expect(await refusal('com.test.files.read_text_file', hello(), [tagOf(chain)])).toMatchObject({
      code: 'REVOKED',
      details: { chain_code: 'revoked', chain_link: 0 },
    });
  });
});
