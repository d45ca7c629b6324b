// The adapter's resolver (discovery.dns_servers) against the test DNS server, which shares no code
// with node:dns: TXT records (a long one split in character-strings), addresses, and the codes
// the DNS step tells apart — NXDOMAIN and NODATA are "no record", SERVFAIL is a failure.
import { checkDnsKey } from '@xprotocol/mcp-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { _adapterDns } from '../src/runtime/dns-resolver.js';
import { base } from './config-helpers.js';
import { startDnsServer, type TestDnsServer } from './support/dns-server.js';

const KEY = `ed25519:${'c3'.repeat(32)}`;
const LONG = `v=xp1; k=${KEY}; note=${'x'.repeat(300)}`;
let server: TestDnsServer;

beforeAll(async () => {
  server = await startDnsServer({
    '_xprotocol.acme.test': { txt: [`v=xp1; k=${KEY}`, LONG] },
    'acme.test': { a: ['127.0.0.1'], aaaa: ['::1'] },
    'only4.test': { a: ['127.0.0.2'] },
    '_xprotocol.broken.test': { servfail: true },
  });
});
afterAll(() => server.close());

function dns() {
  const text = base('discovery:', `  dns_servers: ["${server.address}"]`);
  return _adapterDns(parseConfig(text, 'config.yml', { env: {}, homeDir: '/h' }).config);
}

describe('the adapter resolver on discovery.dns_servers', () => {
  it('reads TXT records, joining nothing itself: the character-strings come as sent', async () => {
    const records = await dns().resolveTxt('_xprotocol.ACME.test');
    expect(records.map((strings) => strings.join(''))).toEqual([`v=xp1; k=${KEY}`, LONG]);
    expect(records[1]!.length).toBe(2);
    expect(await checkDnsKey('acme.test', KEY, { policy: 'required', resolveTxt: dns().resolveTxt })).toEqual(
      {
        checked: true,
        keys: [KEY],
      },
    );
  });

  it('tells NXDOMAIN and NODATA (no record) from SERVFAIL (a failure)', async () => {
    await expect(dns().resolveTxt('_xprotocol.nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(dns().resolveTxt('acme.test')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(dns().resolveTxt('_xprotocol.broken.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    expect(server.asked).toContain('_xprotocol.broken.test TXT');
  });

  it('resolves addresses through the same servers, A and AAAA, either may be missing', async () => {
    const resolve = dns().resolveAddresses!;
    expect(await resolve('acme.test', 0)).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await resolve('acme.test', 6)).toEqual([{ address: '::1', family: 6 }]);
    expect(await resolve('only4.test', 0)).toEqual([{ address: '127.0.0.2', family: 4 }]);
    await expect(resolve('nowhere.test', 0)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('without dns_servers, addresses are left to the system (dns.lookup)', () => {
    expect(
      _adapterDns(parseConfig(base(), 'config.yml', { env: {}, homeDir: '/h' }).config).resolveAddresses,
    ).toBe(undefined);
  });
});
