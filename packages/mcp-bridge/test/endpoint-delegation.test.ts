// A caller served under a delegation chain through the real relay (docs/protocol.md §11.7): the
// endpoint trusts an organisation's root and grants it `com.test.fs.*`; the caller, with no grant
// of its own, presents root → department → caller giving `com.test.fs.read` in the encrypted
// `delegation` tag. A covered tool runs, an uncovered one is refused, and once the department
// publishes a revocation of the caller's link on the relay, the very next call is `REVOKED`: the
// relay hands the revocation to the endpoint's live subscription before it relays that call.
// An `xp.mcp.request` (injected below the relay, to the conformance fixture) is authorized the same
// way, per routed server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalJson,
  createEventTemplate,
  type Delegation,
  generateIdentity,
  openEvent,
  sealEvent,
  signDelegation,
  signEvent,
  signRevocation,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { startRelay } from '@xprotocol/relay';
import { RelayPool } from '@xprotocol/relay-client';
import { afterEach, describe, expect, it } from 'vitest';
import { _sealDelegationTag } from '../src/caller/xp-delegation-tag.js';
import { AccessPolicy, StateDatabase, UpstreamSession, XpEndpoint } from '../src/index.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const READ = 'com.test.fs.read_text_file';
const WRITE = 'com.test.fs.write_file';
const root = generateIdentity();
const dept = generateIdentity();

function chainFor(caller: string, capabilities = ['com.test.fs.read']): Delegation[] {
  const now = Math.floor(Date.now() / 1000);
  const top = signDelegation(
    {
      delegated_key: dept.keys.ed25519,
      capabilities: ['com.test.*'],
      not_before: now - 60,
      expires_at: now + 3600,
    },
    root.ed25519.secretKey,
    nodeSignatures,
  );
  const own = signDelegation(
    {
      delegated_key: caller as Delegation['delegated_key'],
      capabilities,
      not_before: now - 60,
      expires_at: now + 3600,
      proof: top.id,
    },
    dept.ed25519.secretKey,
    nodeSignatures,
  );
  return [top, own];
}

describe('a caller with a delegation chain from a trusted issuer', () => {
  it('is served within the chain, refused outside it, and REVOKED after a revocation reaches the relay', async () => {
    stack = await startStack({
      access: {
        default: 'deny',
        grants: [{ key: root.keys.ed25519, capabilities: ['com.test.fs.*'] }],
        trustedIssuers: [root.keys.ed25519],
      },
    });
    const s = stack;
    const delegation = chainFor(s.client.keys.ed25519);
    const call = (kind: string, payload: unknown, withChain = true) =>
      s.caller.call({
        to: s.adapter.keys,
        kind,
        payload,
        timeoutMs: 10_000,
        ...(withChain && { delegation }),
      });

    const without = await call(READ, { path: `${s.dir}/hello.txt` }, false);
    expect(without).toMatchObject({ ok: false, error: { code: 'AUTHORIZATION_INSUFFICIENT' } });

    const read = await call(READ, { path: `${s.dir}/hello.txt` });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect((read.payload as { content: { text: string }[] }).content[0]!.text).toBe(
      'hello from the filesystem\n',
    );
    // The chain is in the tag, encrypted: a relay sees its id, never the keys or capabilities.
    const sent = await new Promise<string>((resolve) => {
      void s.caller.call({
        to: s.adapter.keys,
        kind: READ,
        payload: { path: `${s.dir}/hello.txt` },
        timeoutMs: 10_000,
        delegation,
        sent: (event) => resolve(JSON.stringify(event.tags)),
      });
    });
    expect(sent).not.toContain(root.keys.ed25519.slice(8));
    expect(sent).not.toContain('com.test.fs.read');

    const write = await call(WRITE, { path: `${s.dir}/x.txt`, content: 'no' });
    expect(write).toMatchObject({
      ok: false,
      error: {
        code: 'AUTHORIZATION_INSUFFICIENT',
        message: expect.stringContaining(
          'its delegation chain gives com.test.fs.read, which do not include it',
        ),
        details: { required_capability: 'com.test.fs.write' },
      },
    });

    const now = Math.floor(Date.now() / 1000);
    const revocation = signRevocation(
      { revoked: delegation[1]!.id, created_at: now },
      dept.ed25519.secretKey,
      nodeSignatures,
    );
    const event = signEvent(
      createEventTemplate({
        kind: 'xp.key.revoke',
        content: canonicalJson(revocation),
        tags: [],
        created_at: now,
        expiration: now + 3600,
      }),
      dept.ed25519.secretKey,
      nodeSignatures,
    );
    await s.clientPool.publish(event);

    const revoked = await call(READ, { path: `${s.dir}/hello.txt` });
    expect(revoked).toMatchObject({
      ok: false,
      error: {
        code: 'REVOKED',
        message: expect.stringContaining('its delegation chain was refused (revoked at link 1)'),
        details: { required_capability: 'com.test.fs.read', chain_code: 'revoked', chain_link: 1 },
      },
    });
    expect(s.upstreamCalls()).toBe(2);
  });
});

describe('a revocation the endpoint received', () => {
  it('still refuses the chain after a restart, once no relay holds it any more', async () => {
    stack = await startStack({
      access: {
        default: 'deny',
        grants: [{ key: root.keys.ed25519, capabilities: ['com.test.fs.*'] }],
        trustedIssuers: [root.keys.ed25519],
      },
    });
    const s = stack;
    const delegation = chainFor(s.client.keys.ed25519);
    const read = () =>
      s.caller.call({
        to: s.adapter.keys,
        kind: READ,
        payload: { path: `${s.dir}/hello.txt` },
        timeoutMs: 10_000,
        delegation,
      });
    expect((await read()).ok).toBe(true);

    // Published with an expiration two seconds out: the relay stops serving it after that, so
    // only the endpoint's own state can remember it across the restart.
    const now = Math.floor(Date.now() / 1000);
    const revocation = signRevocation(
      { revoked: delegation[1]!.id, created_at: now },
      dept.ed25519.secretKey,
      nodeSignatures,
    );
    await s.clientPool.publish(
      signEvent(
        createEventTemplate({
          kind: 'xp.key.revoke',
          content: canonicalJson(revocation),
          tags: [],
          created_at: now,
          expiration: now + 2,
        }),
        dept.ed25519.secretKey,
        nodeSignatures,
      ),
    );
    expect(await read()).toMatchObject({ ok: false, error: { code: 'REVOKED' } });

    await new Promise((resolve) => setTimeout(resolve, 3500));
    await (await s.restart()).start();
    expect(await read()).toMatchObject({
      ok: false,
      error: { code: 'REVOKED', details: { chain_code: 'revoked', chain_link: 1 } },
    });
    expect(s.upstreamCalls()).toBe(1);
  });
});

describe('an xp.mcp.request under a delegation chain', () => {
  it("is routed to the server the chain covers, and refused for a capability outside it, naming the chain's grant", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xp-chain-mcp-'));
    const relay = await startRelay({ port: 0 });
    const fixture = join(import.meta.dirname, 'fixtures', 'conformance-server.mjs');
    const upstream = new UpstreamSession({
      name: 'one',
      transport: { type: 'stdio', command: [process.execPath, fixture, 'stdio'] },
    });
    const pool = await RelayPool.open({ urls: [relay.url] });
    const state = new StateDatabase(join(dir, 'state.db'));
    const adapter = generateIdentity();
    const client = generateIdentity();
    const backends = { signatures: nodeSignatures, cipher: nodeCipher };
    const endpoint = new XpEndpoint({
      identity: adapter,
      pool,
      state,
      catalog: { tool: () => undefined, page: () => ({ contracts: [], total: 0 }), describe: () => [] },
      upstreams: new Map([['one', upstream]]),
      mcpSources: [{ name: 'one', namespace: 'com.test.one' }],
      access: new AccessPolicy({
        default: 'deny',
        grants: [{ key: root.keys.ed25519, capabilities: ['com.test.one.mcp.*'] }],
        trustedIssuers: [root.keys.ed25519],
      }),
      ...backends,
    });
    try {
      await upstream.connect();
      await endpoint.start();
      const chain = chainFor(client.keys.ed25519, ['com.test.one.mcp.resources.read']);
      const ask = async (payload: unknown) => {
        const now = Math.floor(Date.now() / 1000);
        const event = sealEvent(
          {
            kind: 'xp.mcp.request',
            payload,
            created_at: now,
            expiration: now + 30,
            tags: [_sealDelegationTag(chain, client, adapter.keys, nodeCipher)],
          },
          client,
          adapter.keys,
          backends,
        );
        const outcome = await endpoint.handleEvent(event);
        if (outcome.action !== 'answered') throw new Error(`not answered: ${JSON.stringify(outcome)}`);
        return {
          kind: outcome.answer.kind,
          payload: JSON.parse(openEvent(outcome.answer, client, backends).plaintext),
        };
      };
      const read = await ask({ method: 'resources/read', params: { uri: 'test://static-text' } });
      expect(read.kind).toBe('xp.mcp.request.result');
      expect(read.payload.contents[0].text).toBe('This is the content of the static text resource.');
      const prompt = await ask({ method: 'prompts/get', params: { name: 'test_simple_prompt' } });
      expect(prompt).toEqual({
        kind: 'xp.error',
        payload: {
          code: 'AUTHORIZATION_INSUFFICIENT',
          message:
            'com.test.one.mcp.prompts.get is required: this key has no grants here, and its delegation chain gives com.test.one.mcp.resources.read, which do not include it',
          details: { required_capability: 'com.test.one.mcp.prompts.get' },
        },
      });
    } finally {
      await endpoint.stop();
      await pool.close();
      await state.close();
      await upstream.close();
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
