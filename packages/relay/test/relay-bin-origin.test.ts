// A web page on another origin must not be able to use a relay on loopback: the browser sends its
// `Origin` with the WebSocket upgrade, and the relay refuses every origin it was not told to allow
// (`--allow-origin`). Clients without `Origin` (Node, the adapter, the CLI) are not browsers and
// connect as before. The real bin, attacked by a real `ws` client that sends the header.
import { afterEach, describe, expect, it } from 'vitest';
import { makeEvent, newSecret, TestClient } from './support/client.js';
import { closeSocket, killBins, runBin, startBin, stopBin, upgrade } from './support/relay-bin.js';

afterEach(killBins);

describe('xprotocol-relay: Origin of a WebSocket upgrade', () => {
  it('refuses an upgrade from a browser origin by default (403, naming the origin and --allow-origin); serves a client without Origin', async () => {
    const bin = await startBin(['--port', '0']);
    const attack = await upgrade(bin.url, { origin: 'https://attacker.example' });
    if (attack.open) await closeSocket(attack.socket);
    expect(attack.open, 'a page on https://attacker.example got a WebSocket to the relay').toBe(false);
    if (attack.open) return;
    expect(attack.status).toBe(403);
    expect(attack.body).toContain('"https://attacker.example"');
    expect(attack.body).toContain('--allow-origin https://attacker.example');
    // The same relay serves a non-browser client (no Origin header).
    const client = await TestClient.connect(bin.url);
    expect((await client.publish(makeEvent(newSecret())))[2]).toBe(true);
    client.close();
    expect(await stopBin(bin)).toBe(0);
  });

  it('serves exactly the allowed origins: scheme, host and port must all match', async () => {
    const bin = await startBin([
      '--port',
      '0',
      '--allow-origin',
      'http://localhost:5173',
      '--allow-origin',
      'https://console.example',
    ]);
    const allowed = await TestClient.connect(bin.url, { origin: 'http://localhost:5173' });
    expect((await allowed.publish(makeEvent(newSecret())))[2]).toBe(true);
    allowed.close();
    const other = await TestClient.connect(bin.url, { origin: 'https://console.example' });
    other.close();
    for (const origin of [
      'http://localhost:5174', // another port
      'https://localhost:5173', // another scheme
      'http://127.0.0.1:5173', // another host
      'http://localhost:5173.attacker.example',
      'null', // an opaque origin (sandboxed frame, file:)
      'http://localhost:5173, https://attacker.example', // two Origin headers, joined
    ]) {
      const refused = await upgrade(bin.url, { origin });
      if (refused.open) await closeSocket(refused.socket);
      expect(refused.open, `origin ${origin} got a WebSocket`).toBe(false);
      if (refused.open) continue;
      expect(refused.status).toBe(403);
      expect(refused.body).toContain(JSON.stringify(origin));
      expect(refused.body).toContain('http://localhost:5173, https://console.example');
    }
    expect(await stopBin(bin)).toBe(0);
  });

  it('refuses an --allow-origin that is not an origin, with exit 2 and the expected form', async () => {
    const { code, stdout, stderr } = await runBin([
      '--port',
      '0',
      '--allow-origin',
      'http://localhost:5173/',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      '--allow-origin expects an origin (scheme://host[:port], nothing after it), got "http://localhost:5173/"; did you mean "http://localhost:5173"?',
    );
    expect(stderr).toMatch(/usage: xprotocol-relay/);
  });
});
