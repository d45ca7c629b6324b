// The outbound address policy (docs/security.md, "Outbound addresses"): decisions only. Nothing
// here connects anywhere; the one lookup that resolves asks for "localhost" (the hosts file).
import { describe, expect, it } from 'vitest';
import { type AddressCategory, AddressPolicy, parseCidr } from '../src/index.js';

const policy = new AddressPolicy();

describe('AddressPolicy.check: an address table', () => {
  it.each<[string, AddressCategory | 'public']>([
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'], // a cloud metadata address inside CGNAT space
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.1.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'private'], // a cloud metadata address (unique-local)
    ['fc00::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    // IPv6 embedding IPv4: refused whatever the IPv4 part is
    ['::ffff:127.0.0.1', 'embedded-ipv4'],
    ['::ffff:7f00:1', 'embedded-ipv4'],
    ['::ffff:8.8.8.8', 'embedded-ipv4'],
    ['::127.0.0.1', 'embedded-ipv4'],
    ['64:ff9b::a9fe:a9fe', 'embedded-ipv4'], // NAT64 of 169.254.169.254
    ['64:ff9b:1::a00:1', 'embedded-ipv4'],
    ['2002:7f00:1::', 'embedded-ipv4'], // 6to4 of 127.0.0.1
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'embedded-ipv4'], // Teredo
  ])('%s → %s', (address, category) => {
    const decision = policy.check(address);
    expect(decision.category).toBe(category);
    expect(decision.ok).toBe(category === 'public');
  });

  it('names the embedded IPv4 address and what to configure', () => {
    expect(policy.check('::ffff:7f00:1')).toMatchObject({
      ok: false,
      reason:
        '::ffff:7f00:1 is an IPv4-mapped address 127.0.0.1; such addresses are refused for hosts learned from remote documents unless network.allow_private covers them',
    });
    expect(policy.check('2002:a9fe:a9fe::1')).toMatchObject({
      reason: expect.stringContaining('a 6to4 address embedding IPv4 169.254.169.254'),
    });
    expect(policy.check('169.254.169.254')).toMatchObject({
      reason: expect.stringContaining('a cloud metadata address'),
    });
  });

  it('allows what network.allow_private covers, and only that', () => {
    const allowing = new AddressPolicy({ allow: ['10.0.0.0/8', '::1', 'fd00::/8'] });
    expect(allowing.check('10.9.8.7')).toMatchObject({ ok: true, category: 'private' });
    expect(allowing.check('::1')).toMatchObject({ ok: true, category: 'loopback' });
    expect(allowing.check('fd12::1')).toMatchObject({ ok: true });
    expect(allowing.check('192.168.0.1').ok).toBe(false);
    expect(allowing.check('127.0.0.1').ok).toBe(false);
    expect(() => new AddressPolicy({ allow: ['10.0.0.0/33'] })).toThrow(/expected a CIDR range/);
    expect(() => new AddressPolicy({ allow: ['example.com'] })).toThrow(/got "example.com"/);
  });
});

describe('AddressPolicy.checkUrl: IP literals as the URL parser reads them', () => {
  it.each([
    ['ws://2130706433:8080/', '127.0.0.1'], // decimal
    ['ws://0177.0.0.1/', '127.0.0.1'], // octal
    ['ws://0x7f.1/', '127.0.0.1'], // hex, short form
    ['ws://0xa9fea9fe/', '169.254.169.254'],
    ['http://[::ffff:127.0.0.1]:9/', '::ffff:7f00:1'],
    ['wss://[0:0:0:0:0:ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe'],
    ['ws://localhost:8765/', 'localhost'],
    ['ws://relay.localhost/', 'relay.localhost'],
    ['ws://[::]:1/', '::'],
    ['ws://0/', '0.0.0.0'],
  ])('%s is refused as %s', (url, address) => {
    const decision = policy.checkUrl(url);
    expect(decision).toMatchObject({ ok: false, address });
  });

  it('passes a public literal and leaves host names to the lookup', () => {
    expect(policy.checkUrl('wss://8.8.8.8/')).toMatchObject({ ok: true, category: 'public' });
    expect(policy.checkUrl('wss://relay.example.com/')).toMatchObject({
      ok: true,
      address: 'relay.example.com',
    });
  });
});

describe('AddressPolicy.lookup', () => {
  const lookup = (p: AddressPolicy, host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      p.lookup(host, { all }, (error, address) => resolve({ error, address })),
    );

  it('refuses localhost by name, without asking DNS', async () => {
    const { error } = await lookup(policy, 'localhost', false);
    expect(error?.code).toBe('EADDRNOTALLOWED');
    expect(error?.message).toMatch(/^localhost is a loopback address/);
  });

  it('resolves, checks every address and returns only checked ones when allowed', async () => {
    const allowing = new AddressPolicy({ allow: ['127.0.0.0/8', '::1/128'] });
    const one = await lookup(allowing, 'localhost', false);
    expect(one.error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(one.address);
    const all = await lookup(allowing, 'localhost', true);
    expect(all.error).toBeNull();
    expect(
      (all.address as { address: string }[]).every((a) => ['127.0.0.1', '::1'].includes(a.address)),
    ).toBe(true);
    // Allowing only IPv4 loopback: an IPv6 answer for the same name is refused, not skipped.
    const v4only = new AddressPolicy({ allow: ['127.0.0.0/8'] });
    const mixed = await lookup(v4only, 'localhost', true);
    const answers = (all.address as { address: string }[]).map((a) => a.address);
    if (answers.includes('::1')) expect(mixed.error?.message).toMatch(/localhost resolves to ::1/);
    else expect(mixed.error).toBeNull();
  });
});

describe('parseCidr', () => {
  it('reads IPv4, IPv6 and single addresses', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ family: 4, prefix: 8 });
    expect(parseCidr('fd00::/8')).toMatchObject({ family: 6, prefix: 8 });
    expect(parseCidr('::1')).toMatchObject({ family: 6, prefix: 128 });
    expect(parseCidr('1.2.3.4/x')).toBeUndefined();
  });
});
