/**
 * `xprotocol-adapter register` and `revoke` (docs/cli.md; docs/protocol.md §11), run as the built
 * bin in child processes: two `register` calls make a root → department → adapter chain that the
 * chain check accepts; a widened capability, a parent key that is not the chain's, and malformed
 * flags are refused before anything is signed; `revoke` writes a revocation that makes the check
 * refuse the chain, and refuses a key that may not revoke it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDelegationChain } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Processes } from './support/processes.js';

type Key = { path: string; ed25519: string };
let procs: Processes;
let root: Key;
let dept: Key;
let adapter: Key;
let user: Key;
let deptChain: string;

const now = () => Math.floor(Date.now() / 1000);
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown[];

beforeAll(async () => {
  procs = new Processes();
  [root, dept, adapter, user] = (await Promise.all(
    ['root.key', 'dept.key', 'adapter.key', 'user.key'].map((name) => procs.keygen(name)),
  )) as unknown as [Key, Key, Key, Key];
  deptChain = join(procs.dir, 'dept.chain.json');
  const { code, stderr } = await procs.cli([
    'register',
    '--key',
    dept.path,
    '--parent-key',
    root.path,
    '--capabilities',
    'com.acme.docs.*,com.acme.crm.read',
    '--expires',
    '365d',
    '--output',
    deptChain,
  ]);
  expect({ code, stderr }).toMatchObject({ code: 0 });
}, 60_000);

afterAll(async () => {
  await procs?.close();
});

describe('xprotocol-adapter register', () => {
  it('makes a root → department → adapter chain in two calls, which the chain check accepts', async () => {
    const deptLinks = read(deptChain);
    expect(deptLinks).toHaveLength(1);
    expect(deptLinks[0]).toMatchObject({
      kind: 'xp.key.delegate',
      issuer: root.ed25519,
      delegated_key: dept.ed25519,
    });

    const { code, stdout, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      '--parent-delegation',
      deptChain,
      '--capabilities',
      'com.acme.docs.read, com.acme.crm.read',
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const chain = JSON.parse(stdout) as { proof?: string; id: string }[];
    expect(chain).toHaveLength(2);
    expect(chain[0]).toEqual(deptLinks[0]);
    expect(chain[1]!.proof).toBe(chain[0]!.id);
    const verdict = checkDelegationChain({ chain, trustedRoots: [root.ed25519], at: now() });
    expect(verdict).toMatchObject({
      ok: true,
      root: root.ed25519,
      delegatedKey: adapter.ed25519,
      capabilities: ['com.acme.docs.read', 'com.acme.crm.read'],
    });
    // 90 days by default, within the department's year.
    expect(verdict.ok && verdict.expiresAt - now()).toBeGreaterThan(89 * 86_400);
    expect(verdict.ok && verdict.expiresAt - now()).toBeLessThanOrEqual(90 * 86_400);
    expect(stderr).toContain(`registered ${adapter.ed25519} under ${dept.ed25519}`);
  });

  it('refuses a widened capability up front, naming it and what the parent holds; nothing is written', async () => {
    const output = join(procs.dir, 'widened.json');
    const { code, stdout, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      '--parent-delegation',
      deptChain,
      '--capabilities',
      'com.acme.docs.read,com.acme.crm.write',
      '--output',
      output,
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      "--capabilities: com.acme.crm.write is not covered by the parent's capabilities (com.acme.docs.*, com.acme.crm.read)",
    );
    expect(existsSync(output)).toBe(false);
  });

  it('takes the key to register as a public key string, and a user delegation on its own behalf', async () => {
    const { code, stdout, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.ed25519,
      '--parent-key',
      user.path,
      '--capabilities',
      'com.acme.docs.read',
      '--on-behalf-of',
      user.ed25519,
      '--expires',
      String(now() + 3600),
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const chain = JSON.parse(stdout) as unknown[];
    expect(checkDelegationChain({ chain, trustedRoots: [user.ed25519], at: now() })).toMatchObject({
      ok: true,
      onBehalfOf: user.ed25519,
      delegatedKey: adapter.ed25519,
    });
  });

  it.each([
    [['--capabilities', 'com..x'], 2, '--capabilities: "com..x" is not a grant'],
    [['--capabilities', 'a.b,,c.d'], 2, '--capabilities: item 2 is empty'],
    [['--capabilities', 'a.b,a.b'], 2, '--capabilities: "a.b" is listed twice'],
    [['--capabilities', 'a.b', '--expires', '10x'], 2, '--expires: expected a duration'],
    [['--capabilities', 'a.b', '--expires', '3600'], 1, '--expires 3600 is in the past'],
    [
      ['--capabilities', 'a.b', '--on-behalf-of', 'someone'],
      2,
      '--on-behalf-of: expected "ed25519:" followed by 64 lowercase hex digits',
    ],
  ])('refuses %j with exit %i and a message saying what was expected', async (flags, exit, message) => {
    const { code, stdout, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      ...flags,
    ]);
    expect({ code, stdout }).toEqual({ code: exit, stdout: '' });
    expect(stderr).toContain(message);
  });

  it('refuses a parent key that is not the one the parent chain delegates to', async () => {
    const { code, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      user.path,
      '--parent-delegation',
      deptChain,
      '--capabilities',
      'com.acme.docs.read',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `--parent-key is ${user.ed25519}, but the chain in ${deptChain} delegates to ${dept.ed25519}`,
    );
  });

  it('refuses on_behalf_of a key that did not sign, and a parent chain file that is not a chain', async () => {
    const obo = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      '--parent-delegation',
      deptChain,
      '--capabilities',
      'com.acme.docs.read',
      '--on-behalf-of',
      user.ed25519,
    ]);
    expect(obo.code).toBe(1);
    expect(obo.stderr).toContain(
      `--on-behalf-of ${user.ed25519}: only that key can delegate on its own behalf`,
    );
    const notChain = procs.file('not-a-chain.json', '{"kind":"xp.key.delegate"}');
    const bad = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      '--parent-delegation',
      notChain,
      '--capabilities',
      'com.acme.docs.read',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `--parent-delegation ${notChain}: expected a chain file (a JSON array of delegations, root first, as register writes it), got an object`,
    );
  });

  it('does not replace an existing output file without --force', async () => {
    const output = procs.file('taken.json', 'keep me\n');
    const args = [
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      root.path,
      '--capabilities',
      'a.b',
      '--output',
      output,
    ];
    const refused = await procs.cli(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${output} exists`);
    expect(readFileSync(output, 'utf8')).toBe('keep me\n');
    const forced = await procs.cli([...args, '--force']);
    expect(forced.code).toBe(0);
    expect(read(output)).toHaveLength(1);
  });
});

describe('xprotocol-adapter revoke', () => {
  let adapterChain: string;

  beforeAll(async () => {
    adapterChain = join(procs.dir, 'adapter.chain.json');
    const { code, stderr } = await procs.cli([
      'register',
      '--key',
      adapter.path,
      '--parent-key',
      dept.path,
      '--parent-delegation',
      deptChain,
      '--capabilities',
      'com.acme.docs.read',
      '--output',
      adapterChain,
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
  }, 30_000);

  it("writes a revocation of the chain's last link that makes the check refuse the chain", async () => {
    const chain = read(adapterChain);
    expect(checkDelegationChain({ chain, trustedRoots: [root.ed25519], at: now() }).ok).toBe(true);
    const output = join(procs.dir, 'revocation.json');
    const { code, stderr } = await procs.cli([
      'revoke',
      '--key',
      dept.path,
      '--delegation',
      adapterChain,
      '--output',
      output,
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const revocation = JSON.parse(readFileSync(output, 'utf8')) as {
      kind: string;
      revoked: string;
      issuer: string;
    };
    expect(revocation).toMatchObject({
      kind: 'xp.key.revoke',
      issuer: dept.ed25519,
      revoked: (chain[1] as { id: string }).id,
    });
    expect(
      checkDelegationChain({ chain, trustedRoots: [root.ed25519], at: now(), revocations: [revocation] }),
    ).toMatchObject({
      ok: false,
      code: 'revoked',
      link: { index: 1 },
    });
  });

  it('lets a key above the issuer revoke (the root), and takes a delegation id', async () => {
    const chain = read(adapterChain) as { id: string }[];
    const byRoot = await procs.cli(['revoke', '--key', root.path, '--delegation', adapterChain]);
    expect(byRoot.code).toBe(0);
    const revocation = JSON.parse(byRoot.stdout) as unknown;
    expect(
      checkDelegationChain({ chain, trustedRoots: [root.ed25519], at: now(), revocations: [revocation] }),
    ).toMatchObject({
      code: 'revoked',
    });
    const byId = await procs.cli(['revoke', '--key', dept.path, '--delegation', chain[1]!.id]);
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.stdout)).toMatchObject({ revoked: chain[1]!.id, issuer: dept.ed25519 });
    expect(byId.stderr).toContain('not checked that');
  });

  it('refuses a key that may not revoke the delegation (its own delegate, an outsider)', async () => {
    for (const key of [adapter, user]) {
      const { code, stdout, stderr } = await procs.cli([
        'revoke',
        '--key',
        key.path,
        '--delegation',
        adapterChain,
      ]);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toContain(`${key.ed25519} cannot revoke delegation`);
    }
  });

  it('refuses a --delegation that is neither a file nor an id, and a file that is not a delegation', async () => {
    const missing = await procs.cli(['revoke', '--key', dept.path, '--delegation', 'nope.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      '--delegation nope.json: expected a chain file, a delegation file or a delegation id (64 lowercase hex digits)',
    );
    const garbage = procs.file('garbage.json', '[1, 2]');
    const bad = await procs.cli(['revoke', '--key', dept.path, '--delegation', garbage]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `--delegation ${garbage}: link 0: delegation: expected a JSON object, got 1`,
    );
  });
});

describe('the chain flags of call and revoke --relay', () => {
  it('refuses call --delegation with a chain that delegates to another key, before connecting', async () => {
    const { code, stdout, stderr } = await procs.cli([
      'call',
      '--key',
      user.path,
      '--relay',
      'ws://127.0.0.1:9',
      '--to',
      root.ed25519,
      '--kind',
      'com.acme.docs.read',
      '--payload',
      '{}',
      '--delegation',
      deptChain,
    ]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toContain(
      `--delegation ${deptChain}: the chain delegates to ${dept.ed25519}, but --key is ${user.ed25519}`,
    );
  });

  it('refuses revoke --relay that is not a ws:// URL, and names a relay that did not take the revocation', async () => {
    const bad = await procs.cli([
      'revoke',
      '--key',
      root.path,
      '--delegation',
      deptChain,
      '--relay',
      'http://x',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--relay: expected a ws:// or wss:// URL, got "http://x"');
    const down = await procs.cli([
      'revoke',
      '--key',
      root.path,
      '--delegation',
      deptChain,
      '--relay',
      'ws://127.0.0.1:9',
    ]);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout)).toMatchObject({ kind: 'xp.key.revoke', issuer: root.ed25519 });
    expect(down.stderr).toContain('the revocation was signed but not published to ws://127.0.0.1:9 (');
  });
});
