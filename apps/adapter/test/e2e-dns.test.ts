// Keys published in DNS TXT (docs/protocol.md §10.3, "Keys in DNS TXT"), end to end with real processes: a relay,
// adapter B serving its well-known document (behind an HTTPS front with a test certificate),
// the strict test DNS server on loopback, and adapter A whose xprotocol_sources reach B by
// xp://<name>:<port> — each name with its own TXT records and A's own `dns` policy per source.
// B prints the record to publish (publish_dns); `dns-record` prints it without starting.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from './support/dns-server.js';
import { type HttpsFront, startHttpsFront } from './support/https-front.js';
import { FS_SERVER, freePort, Processes } from './support/processes.js';

const procs = new Processes();
const NAMES = ['good.test', 'other.test', 'bare.test', 'open.test', 'broken.test', 'flaky.test'];
let relayUrl: string;
let b: { path: string; ed25519: string };
let a: { ed25519: string };
let stranger: { ed25519: string };
let bLogs: string[];
let dns: TestDnsServer;
let front: HttpsFront;

beforeAll(async () => {
  ({ url: relayUrl } = await procs.relay());
  b = await procs.keygen('b.key');
  a = await procs.keygen('a.key');
  stranger = await procs.keygen('stranger.key');
  const wellKnownPort = await freePort();
  procs.file('note.txt', 'found through DNS\n');
  const config = procs.file(
    'b.yml',
    `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: fs
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.fs
access:
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.fs.read]
discovery:
  well_known_port: ${wellKnownPort}
  publish_dns: true
  dns_name: Good.Test
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
  );
  ({ logs: bLogs } = await procs.adapter(config));
  front = await startHttpsFront(procs.dir, NAMES, `http://127.0.0.1:${wellKnownPort}`);
  const everyName = Object.fromEntries(NAMES.map((name) => [name, { a: ['127.0.0.1'] }]));
  dns = await startDnsServer({
    ...everyName,
    '_xprotocol.good.test': { txt: ['v=spf1 -all', `v=xp1; k=${stranger.ed25519}`, `v=xp1; k=${b.ed25519}`] },
    '_xprotocol.other.test': { txt: [`v=xp1; k=${stranger.ed25519}`] },
    '_xprotocol.broken.test': { servfail: true },
    '_xprotocol.flaky.test': { servfail: true },
  });
});
afterAll(async () => {
  await procs.close();
  await front?.close();
  await dns?.close();
});

describe('publishing the key', () => {
  it('adapter B prints the TXT record once at start, above its warn level', () => {
    const lines = bLogs.filter((line) => line.includes('"event":"dns_record"'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      name: '_xprotocol.good.test',
      type: 'TXT',
      value: `v=xp1; k=${b.ed25519}`,
      msg: `publish this DNS record for xp://good.test: _xprotocol.good.test TXT "v=xp1; k=${b.ed25519}"`,
    });
  });

  it('dns-record prints it without starting: from the config, or from a key and a domain', async () => {
    const fromConfig = await procs.cli(['dns-record', '--config', `${procs.dir}/b.yml`]);
    expect(fromConfig).toMatchObject({
      code: 0,
      stdout: `_xprotocol.good.test. IN TXT "v=xp1; k=${b.ed25519}"\n`,
    });
    const fromKey = await procs.cli(['dns-record', '--key', b.path, '--domain', 'acme.example', '--json']);
    expect(fromKey.code).toBe(0);
    expect(JSON.parse(fromKey.stdout)).toEqual({
      name: '_xprotocol.acme.example',
      type: 'TXT',
      value: `v=xp1; k=${b.ed25519}`,
    });
    const noDomain = await procs.cli(['dns-record', '--key', b.path]);
    expect(noDomain.code).toBe(2);
    expect(noDomain.stderr).toContain('--domain: missing, expected the domain callers reach the endpoint by');
    const badDomain = await procs.cli(['dns-record', '--key', b.path, '--domain', '127.0.0.1']);
    expect(badDomain.code).toBe(2);
    expect(badDomain.stderr).toContain('--domain: expected a domain name with at least two labels');
    const noKey = await procs.cli([
      'dns-record',
      '--key',
      `${procs.dir}/absent.key`,
      '--domain',
      'a.example',
    ]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('absent.key: no such key file');
  });
});

/** Adapter A with the given sources (name, policy), its face over HTTP: the prefixes it lists and its logs. */
async function adapterA(
  label: string,
  sources: [name: string, policy: string][],
): Promise<{ prefixes: string[]; logs: string[]; client: Client }> {
  const facePort = await freePort();
  const lines = sources.map(([name, policy]) => {
    const short = name.split('.')[0];
    return `  - name: ${short}\n    endpoint: xp://${name}:${front.port}\n    mcp_tool_prefix: ${short}_\n    dns: ${policy}`;
  });
  const config = procs.file(
    `${label}.yml`,
    `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
${lines.join('\n')}
mcp_server:
  transport: streamable_http
  port: ${facePort}
  auth:
    token_env: XP_E2E_DNS_TOKEN
discovery:
  dns_servers: ["${dns.address}"]
network:
  allow_private: [127.0.0.0/8]
state_database: ./${label}-state.db
logging:
  level: warn
  format: json
`,
  );
  const token = 'e2e-dns-token-7c21';
  const { logs } = await procs.adapter(config, {
    XP_E2E_DNS_TOKEN: token,
    NODE_EXTRA_CA_CERTS: front.caFile,
  });
  const client = new Client({ name: 'e2e-dns', version: '0.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${facePort}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const { tools } = await client.listTools();
  const prefixes = [...new Set(tools.map((tool) => tool.name.split('_')[0]!))].filter((p) => p !== 'search');
  return { prefixes: prefixes.sort(), logs, client };
}

/** The error adapter A logged for `source`, if any. */
function refusal(logs: string[], source: string): string | undefined {
  return logs
    .map((line) => JSON.parse(line) as { source?: string; error?: string })
    .find((entry) => entry.source === source && entry.error !== undefined)?.error;
}

describe('a caller checks the key of xp://<domain> against its TXT records', () => {
  it('serves a domain publishing the key; refuses another key, no record when required, SERVFAIL', async () => {
    const { prefixes, logs, client } = await adapterA('a', [
      ['good.test', 'required'],
      ['other.test', 'if_published'],
      ['bare.test', 'required'],
      ['broken.test', 'required'],
      ['flaky.test', 'if_published'],
    ]);
    try {
      expect(prefixes).toEqual(['good']);
      const result = await client.callTool({
        name: 'good_read_text_file',
        arguments: { path: `${procs.dir}/note.txt` },
      });
      expect((result.content as { text: string }[])[0]!.text).toBe('found through DNS\n');
    } finally {
      await client.close();
    }
    expect(refusal(logs, 'other')).toBe(
      `_xprotocol.other.test publishes ${stranger.ed25519}, but the well-known document of other.test gives ${b.ed25519}: refused`,
    );
    expect(refusal(logs, 'bare')).toBe('no TXT record at _xprotocol.bare.test (dns: required): refused');
    expect(refusal(logs, 'broken')).toBe(
      'cannot read the TXT record at _xprotocol.broken.test: ESERVFAIL (dns: required refuses an endpoint whose records cannot be read; retried at the next refresh)',
    );
    expect(refusal(logs, 'flaky')).toBe(
      'cannot read the TXT record at _xprotocol.flaky.test: ESERVFAIL (dns: if_published refuses an endpoint whose records cannot be read; retried at the next refresh)',
    );
    expect(refusal(logs, 'good')).toBeUndefined();
    // The well-known host was resolved through the same servers as the TXT records.
    expect(dns.asked).toEqual(expect.arrayContaining(['good.test A', '_xprotocol.good.test TXT']));
  });

  it('serves a domain without records under if_published', async () => {
    const { prefixes, logs, client } = await adapterA('a-open', [['open.test', 'if_published']]);
    await client.close();
    expect(prefixes).toEqual(['open']);
    expect(refusal(logs, 'open')).toBeUndefined();
    expect(dns.asked).toContain('_xprotocol.open.test TXT');
  });
});
