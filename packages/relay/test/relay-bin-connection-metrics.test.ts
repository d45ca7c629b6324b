// The relay's connection refusals in its metrics (docs/operating.md, "The relay"): the real bin with
// small limits, real clients turned away for each reason it counts — a browser Origin not allowed
// (403), an address at its connection limit (429), the relay at its total (503), sockets past the
// handshake allowance (closed at once), an upgrade request that never comes (the handshake
// timeout) — and /metrics, parsed by an independent parser from npm, counts exactly those.
import { connect, type Socket } from 'node:net';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { closeSocket, killBins, type RelayBin, startBin, upgrade } from './support/relay-bin.js';

const TOKEN = 'relay-admin-token-for-connection-metrics-0123';
const env = { ...process.env, XP_RELAY_ADMIN_TOKEN: TOKEN };
const raw: Socket[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of raw.splice(0)) socket.destroy();
  await Promise.all(sockets.splice(0).map(closeSocket));
  killBins();
});

/** Starts the bin with an admin listener; resolves with it and its metrics URL (from stderr). */
async function startWithMetrics(args: string[]): Promise<{ bin: RelayBin; admin: URL }> {
  const bin = await startBin(
    ['--port', '0', '--admin-port', '0', '--admin-token-env', 'XP_RELAY_ADMIN_TOKEN', ...args],
    [],
    env,
  );
  for (let i = 0; i < 500; i++) {
    const match = /admin listener on (http:\/\/\S+)/.exec(bin.stderr.join(''));
    if (match) return { bin, admin: new URL(match[1]!) };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no admin listener line on stderr: ${bin.stderr.join('')}`);
}

/** The refusals counted by reason, read from /metrics. */
async function refusals(admin: URL): Promise<Record<string, number>> {
  const response = await fetch(admin, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  const family = parsePrometheusTextFormat(await response.text()).find(
    (f) => f.name === 'xprotocol_relay_connections_refused_total',
  );
  expect(family?.type).toBe('COUNTER');
  return Object.fromEntries((family?.metrics ?? []).map((m) => [m.labels?.reason, Number(m.value)]));
}

/** A TCP connection to the relay that sends nothing; resolves once connected. */
function openRaw(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', () => {
      // A socket the relay resets shows up as closed.
    });
    socket.once('close', () => reject(new Error('closed before connecting')));
    raw.push(socket);
  });
}

const closed = (socket: Socket) =>
  socket.destroyed
    ? Promise.resolve()
    : new Promise<void>((resolve) => socket.once('close', () => resolve()));

describe('xprotocol-relay --admin-port: connections turned away, by reason', () => {
  it('counts an Origin refused, an address at its limit and a handshake that never came', async () => {
    const { bin, admin } = await startWithMetrics([
      '--max-connections-per-ip',
      '1',
      '--handshake-timeout-ms',
      '500',
    ]);
    expect(await refusals(admin)).toEqual({
      origin: 0,
      per_address: 0,
      total: 0,
      sockets: 0,
      handshake_timeout: 0,
    });
    const browser = await upgrade(bin.url, { origin: 'http://evil.example' });
    expect(browser).toMatchObject({ open: false, status: 403 });
    const first = await upgrade(bin.url);
    if (!first.open) throw new Error(`the first connection was refused: ${first.status}`);
    sockets.push(first.socket);
    expect(await upgrade(bin.url)).toMatchObject({ open: false, status: 429 });
    // Closing the first frees its slot; a silent socket is then closed at the handshake timeout.
    await closeSocket(sockets.pop()!);
    await closed(await openRaw(bin.url));
    expect(await refusals(admin)).toEqual({
      origin: 1,
      per_address: 1,
      total: 0,
      sockets: 0,
      handshake_timeout: 1,
    });
  }, 60_000);

  it('counts the relay at its total, and sockets past the handshake allowance', async () => {
    // One connection in all: the second address's upgrade is 503. Sockets in their handshake may
    // pass the total by the allowance; past it they are closed as soon as they connect.
    const { bin, admin } = await startWithMetrics([
      '--max-connections',
      '1',
      '--handshake-timeout-ms',
      '30000',
    ]);
    const first = await upgrade(bin.url, { localAddress: '127.0.0.1' });
    if (!first.open) throw new Error(`the first connection was refused: ${first.status}`);
    sockets.push(first.socket);
    expect(await upgrade(bin.url, { localAddress: '127.0.0.2' })).toMatchObject({ open: false, status: 503 });
    let turnedAway = 0;
    for (let i = 0; i < 200 && turnedAway === 0; i++) {
      const socket = await openRaw(bin.url).catch(() => undefined);
      // A socket past the allowance is destroyed right after it connects.
      if (socket !== undefined) await new Promise((r) => setTimeout(r, 20));
      if (socket === undefined || socket.destroyed) turnedAway++;
    }
    expect(turnedAway).toBe(1);
    const counted = await refusals(admin);
    expect(counted).toMatchObject({ total: 1, handshake_timeout: 0 });
    expect(counted.sockets).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
