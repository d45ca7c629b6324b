// The relay's admin listener (docs/operating.md, "The relay"), against the built bin: real
// WebSocket clients subscribe and publish (accepted, a duplicate, an invalid event, one over the
// rate), then /metrics, parsed by an independent parser from npm, counts exactly those. The
// listener's defences are attacked (no or a wrong token, a foreign Host, an Origin, a body, an
// oversized request), and the flags that would expose it without a token are refused at start.
import { request as httpRequest } from 'node:http';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';
import { killBins, type RelayBin, runBin, startBin, stopBin } from './support/relay-bin.js';

const TOKEN = 'relay-admin-token-for-the-test-0123456789';
const env = { ...process.env, XP_RELAY_ADMIN_TOKEN: TOKEN };
let bin: RelayBin;
let adminUrl: URL;

/** The admin URL the bin writes on stderr (stdout holds the relay's URL only). */
async function adminUrlOf(started: RelayBin): Promise<URL> {
  for (let i = 0; i < 500; i++) {
    const match = /admin listener on (http:\/\/\S+)/.exec(started.stderr.join(''));
    if (match) return new URL(match[1]!);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no admin listener line on stderr: ${started.stderr.join('')}`);
}

beforeAll(async () => {
  bin = await startBin(
    ['--port', '0', '--rate', '3', '--admin-port', '0', '--admin-token-env', 'XP_RELAY_ADMIN_TOKEN'],
    [],
    env,
  );
  adminUrl = await adminUrlOf(bin);
}, 30_000);
afterAll(async () => {
  if (bin?.child.exitCode === null) await stopBin(bin);
  killBins();
});

async function scrape(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const response = await fetch(adminUrl, { headers });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** A raw HTTP exchange with the admin listener (what fetch will not send: any Host, a GET body). */
function raw(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: Number(adminUrl.port),
          method: options.method ?? 'GET',
          path: options.path ?? '/metrics',
          headers: { authorization: `Bearer ${TOKEN}`, ...options.headers },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    },
  );
}

/** The value of the sample of `family` whose labels include `labels`; undefined when there is none. */
function sample(text: string, family: string, labels: Record<string, string> = {}): number | undefined {
  const parsed = parsePrometheusTextFormat(text).find((f) => f.name === family);
  const match = parsed?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return match === undefined ? undefined : Number(match.value ?? match.count);
}

describe('xprotocol-relay --admin-port: metrics of real traffic', () => {
  it('counts connections, subscriptions, accepted, duplicate and refused events by reason, and deliveries', async () => {
    const subscriber = await TestClient.connect(bin.url);
    expect(await subscriber.request('live', { kinds: ['com.test.echo'] })).toEqual([]);
    expect(await subscriber.request('quiet', { kinds: ['com.test.other'] })).toEqual([]);
    const publisher = await TestClient.connect(bin.url);
    const secret = newSecret();
    const events = [0, 1, 2].map((i) => makeEvent(secret, { content: `hello ${i}` }));
    for (const event of events) expect((await publisher.publish(event))[2]).toBe(true);
    // A copy is answered duplicate before the rate is looked at; a fourth new event is over it.
    const copy = await publisher.publish(events[0]);
    expect(copy[2]).toBe(true);
    expect(String(copy[3])).toMatch(/^duplicate:/);
    const over = await publisher.publish(makeEvent(secret, { content: 'one too many' }));
    expect(over[2]).toBe(false);
    expect(String(over[3])).toMatch(/^rate-limited:/);
    const tampered = { ...makeEvent(newSecret()), content: 'changed after signing' };
    const invalid = await publisher.publish(tampered);
    expect(invalid[2]).toBe(false);
    expect(String(invalid[3])).toMatch(/^invalid:/);
    for (const event of events)
      await subscriber.waitFor(
        (f) => f[0] === 'EVENT' && f[1] === 'live' && (f[2] as { id: string }).id === event.id,
      );

    const { status, type, body } = await scrape();
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(sample(body, 'xprotocol_relay_connections')).toBe(2);
    expect(sample(body, 'xprotocol_relay_subscriptions')).toBe(2);
    expect(sample(body, 'xprotocol_relay_events_accepted_total')).toBe(3);
    expect(sample(body, 'xprotocol_relay_events_duplicate_total')).toBe(1);
    expect(sample(body, 'xprotocol_relay_events_refused_total', { reason: 'rate_limit' })).toBe(1);
    expect(sample(body, 'xprotocol_relay_events_refused_total', { reason: 'invalid' })).toBe(1);
    expect(sample(body, 'xprotocol_relay_events_delivered_total')).toBe(3);
    expect(sample(body, 'xprotocol_relay_store_errors_total', { operation: 'put' })).toBe(0);
    expect(sample(body, 'xprotocol_relay_stored_bytes')).toBeGreaterThan(0);
    const histogram = parsePrometheusTextFormat(body).find(
      (f) => f.name === 'xprotocol_relay_admission_seconds',
    );
    expect(histogram?.type).toBe('HISTOGRAM');
    expect(Number(histogram?.metrics[0]?.count)).toBe(3);
    const types = Object.fromEntries(parsePrometheusTextFormat(body).map((f) => [f.name, f.type]));
    expect(types.xprotocol_relay_events_accepted_total).toBe('COUNTER');
    expect(types.xprotocol_relay_connections).toBe('GAUGE');
    expect(body).not.toContain(events[0]!.pubkey);

    // A closed subscription and a closed connection leave the gauges.
    subscriber.send(['CLOSE', 'quiet']);
    publisher.close();
    let after = (await scrape()).body;
    for (let i = 0; i < 500 && sample(after, 'xprotocol_relay_connections') !== 1; i++) {
      await new Promise((r) => setTimeout(r, 10));
      after = (await scrape()).body;
    }
    expect(sample(after, 'xprotocol_relay_connections')).toBe(1);
    expect(sample(after, 'xprotocol_relay_subscriptions')).toBe(1);
    subscriber.close();
  });
});

describe('xprotocol-relay --admin-port: the listener refuses what is not a scrape', () => {
  it('asks for its own token: none, a wrong one, or the token without Bearer is 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
      const { status, body } = await scrape(headers);
      expect(status).toBe(401);
      expect(body).toContain('--admin-token-env');
      expect(body).not.toContain('xprotocol_relay_');
    }
    const { headers } = await raw({ headers: { authorization: 'Bearer wrong' } });
    expect(headers['www-authenticate']).toBe('Bearer realm="xprotocol-relay admin"');
  });

  it('refuses a foreign Host (DNS rebinding), another port in Host, and any Origin with 403', async () => {
    const foreign = await raw({ headers: { host: 'evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/Host/);
    const otherPort = await raw({ headers: { host: `127.0.0.1:${Number(adminUrl.port) + 1}` } });
    expect(otherPort.status).toBe(403);
    const origin = await raw({ headers: { origin: 'http://evil.example' } });
    expect(origin.status).toBe(403);
    expect(origin.body).toMatch(/Origin/);
    // The port the listener was given was 0: Host naming the bound port is served.
    expect((await raw({ headers: { host: `127.0.0.1:${adminUrl.port}` } })).status).toBe(200);
  });

  it('serves GET /metrics only, and refuses a body, a long URL and oversized headers', async () => {
    expect((await raw({ method: 'POST' })).status).toBe(405);
    expect((await raw({ path: '/' })).status).toBe(404);
    expect((await raw({ headers: { 'content-length': '5' }, body: 'hello' })).status).toBe(413);
    expect((await raw({ path: `/metrics?${'a'.repeat(2000)}` })).status).toBe(414);
    expect((await raw({ headers: { 'x-filler': 'a'.repeat(16 * 1024) } })).status).toBe(431);
  });
});

describe('xprotocol-relay --admin-*: refused at start', () => {
  it('refuses a non-loopback --admin-host without --admin-allow-remote, and that flag without a token', async () => {
    const remote = await runBin(['--port', '0', '--admin-port', '0', '--admin-host', '0.0.0.0'], [], env);
    expect(remote.code).toBe(2);
    expect(remote.stdout).toBe('');
    expect(remote.stderr).toContain('--admin-host 0.0.0.0 is not a loopback address');
    expect(remote.stderr).toContain('--admin-allow-remote');
    const noToken = await runBin(
      ['--port', '0', '--admin-port', '0', '--admin-host', '0.0.0.0', '--admin-allow-remote'],
      [],
      env,
    );
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--admin-allow-remote needs --admin-token-env');
  });

  it('refuses a token variable that is not set, and admin flags without --admin-port', async () => {
    const unset = await runBin(
      ['--port', '0', '--admin-port', '0', '--admin-token-env', 'XP_NOT_SET_ANYWHERE'],
      [],
      {
        ...process.env,
        XP_NOT_SET_ANYWHERE: '',
      },
    );
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('environment variable XP_NOT_SET_ANYWHERE is empty');
    const orphan = await runBin(['--port', '0', '--admin-token-env', 'XP_RELAY_ADMIN_TOKEN'], [], env);
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toContain('--admin-token-env needs --admin-port');
  });
});
