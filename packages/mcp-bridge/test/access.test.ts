// Who may call what: deny by default, grants by key, and refusal reasons that the endpoint puts after
// "<capability> is required: " — so a reason never names the capability a second time.
import { describe, expect, it } from 'vitest';
import { AccessPolicy } from '../src/index.js';

const ALICE = `ed25519:${'a'.repeat(64)}`;
const BOB = `ed25519:${'b'.repeat(64)}`;

describe('AccessPolicy', () => {
  const policy = new AccessPolicy({
    default: 'deny',
    grants: [{ key: ALICE, capabilities: ['com.x.read', 'com.y.*'] }],
  });

  it('grants what a key holds, wildcards included', () => {
    expect(policy.check(ALICE, 'com.x.read')).toEqual({ ok: true });
    expect(policy.check(ALICE, 'com.y.files.write')).toEqual({ ok: true });
  });

  it('refuses the rest with a reason that says why once, without naming the capability again', () => {
    expect(policy.check(ALICE, 'com.x.write')).toEqual({
      ok: false,
      reason: "this key's grants (com.x.read, com.y.*) do not include it",
    });
    expect(policy.check(BOB, 'com.x.read')).toEqual({ ok: false, reason: 'this key has no grants here' });
  });

  it('lets every key call everything under default: allow', () => {
    expect(new AccessPolicy({ default: 'allow', grants: [] }).check(BOB, 'com.x.write')).toEqual({
      ok: true,
    });
  });
});
