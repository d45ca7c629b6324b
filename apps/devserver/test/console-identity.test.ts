// The console's Identity page on a real `xprotocol-devserver --config` child whose adapter carries a
// delegation chain (identity.parent_delegation_event, under a root the configuration trusts): the
// API shows the root, the link, the window and the chain check's verdict; without trust roots (a
// reload) it says the chain was not checked. Then an announce signed with the adapter's key but
// carrying a chain whose keys and capabilities are HTML: the API passes it on as text, and chromium
// renders it as text — nothing of it becomes an element or runs. The browser part is skipped, with
// the reason printed, only when no chromium can be found (support/chromium.ts).
import { writeFileSync } from 'node:fs';
import {
  canonicalJson,
  createEventTemplate,
  generateIdentity,
  signDelegation,
  signEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, writeKeyFile } from '@xprotocol/crypto/node';
import { RelayPool } from '@xprotocol/relay-client';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import type { EndpointIdentityView } from '../src/console-identity.js';
import { type Child, FS_SERVER, Sandbox } from './support/children.js';
import { findChromium } from './support/chromium.js';
import { ConsoleClient } from './support/console-client.js';

const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };
const sandbox = new Sandbox();
const root = generateIdentity(BACKENDS);
const devKey = generateIdentity(BACKENDS);
let dev: Child;
let web: ConsoleClient;
let configPath: string;
/** When the last reload began: the restarted adapter's announce is no older. */

const config = (trusting: boolean) => `identity:
  key_file: ./ignored.key
  parent_delegation_event: ./chain.json
  parent_key: ${root.keys.ed25519}
relay:
  urls: [ws://relay.example.invalid:9]
mcp_sources:
  - name: fs
    transport: stdio
    command: ${_quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir])}
    xprotocol_namespace: com.test.fs
    tool_allowlist: [read_text_file]
access:
  default: deny
${trusting ? `  trusted_issuers: [${root.keys.ed25519}]\n  grants:\n    - key: ${root.keys.ed25519}\n      capabilities: [com.test.fs.*]\n` : ''}state_database: ./state.db
logging:
  level: warn
  format: text
`;

type IdentityView = { trustRoots: string[]; endpoints: EndpointIdentityView[] };

beforeAll(async () => {
  await writeKeyFile(sandbox.path('dev.key'), devKey);
  const now = Math.floor(Date.now() / 1000);
  const link = signDelegation(
    {
      delegated_key: devKey.keys.ed25519,
      capabilities: ['com.test.fs.read'],
      not_before: now - 60,
      expires_at: now + 86_400 * 30,
    },
    root.ed25519.secretKey,
    nodeSignatures,
  );
  sandbox.file('chain.json', JSON.stringify([link]));
  configPath = sandbox.file('devserver.yml', config(true));
  dev = sandbox.spawn([
    '--config',
    configPath,
    '--relay-port',
    '0',
    '--db',
    sandbox.path('events.db'),
    '--key',
    sandbox.path('dev.key'),
  ]);
  await dev.waitForStderr(/"mcpServers"/);
  web = new ConsoleClient(dev);
}, 60_000);
afterAll(() => sandbox.close());

/** The adapter's view, once its announce carries `what` (the relay may still be storing it). */
async function adapterView(what: (e: EndpointIdentityView) => boolean): Promise<EndpointIdentityView> {
  let last: EndpointIdentityView | undefined;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    last = (await web.json<IdentityView>('/api/identity')).endpoints[0];
    if (last && what(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the adapter's identity never matched: ${JSON.stringify(last)}`);
}

describe('the Identity page of the console', () => {
  it("shows the adapter's chain: root, link, window, and the verdict against the trust roots", async () => {
    const view = await adapterView((e) => e.chain !== undefined);
    expect(view).toMatchObject({ name: 'the adapter', key: devKey.keys.ed25519 });
    expect(view.chain).toMatchObject({
      root: root.keys.ed25519,
      links: [
        {
          index: 0,
          issuer: root.keys.ed25519,
          delegatedKey: devKey.keys.ed25519,
          capabilities: ['com.test.fs.read'],
        },
      ],
      window: { expired: false },
      verdict: { checked: true, ok: true, capabilities: ['com.test.fs.read'] },
    });
  });

  it('says "not checked: no trust roots" once the configuration trusts no root', async () => {
    writeFileSync(configPath, config(false));
    await dev.waitForStderr(/↻ .*devserver\.yml changed: adapter restarted/);
    const view = await adapterView((e) => e.chain?.verdict.checked === false);
    expect(view.chain!.verdict).toEqual({
      checked: false,
      reason: expect.stringMatching(/^not checked: no trust roots/),
    });
    writeFileSync(configPath, config(true));
    await dev.waitForStderr(
      /↻ .*devserver\.yml changed: adapter restarted[\s\S]*↻ .*devserver\.yml changed: adapter restarted/,
    );
  });

  const lookup = findChromium();
  if (lookup.path === undefined)
    console.warn(`console-identity.test.ts: browser part skipped: ${lookup.reason}`);

  it.skipIf(lookup.path === undefined)(
    'renders a hostile chain (HTML in keys and capabilities) as text, in the API and in chromium',
    async () => {
      const attack = '<img src=x onerror="window.__pwned=1">';
      // The attacker's announce must be the newest of this key for as long as the test reads it,
      // whenever the restarted adapter publishes its own: dated a minute ahead (the relay allows
      // 300 s of skew), and after everything the view has shown so far.
      const latest = await adapterView((e) => e.chain?.verdict.checked === true);
      const relayUrl = /Local relay: (ws:\/\/127\.0\.0\.1:\d+)/.exec(dev.stderr)![1]!;
      const content = canonicalJson({
        display_name: 'attacker',
        adapter_version: '0.0.0',
        x25519: devKey.keys.x25519,
        relays: [relayUrl],
        mcp_sources: [],
        xprotocol_sources: [],
        counts: {
          mcp_sources: 0,
          xprotocol_sources: 0,
          schemas: 0,
          tools: 0,
          prompts: 0,
          low_quality_schemas: 0,
        },
        low_quality_schemas: [],
        delegation_chain: [
          {
            issuer: `<script>window.__pwned=2</script>`,
            delegated_key: attack,
            capabilities: [attack, '<b>bold</b>'],
            not_before: '<i>soon</i>',
            expires_at: 1,
            id: '<svg onload="window.__pwned=3">',
          },
        ],
      });
      const createdAt = Math.max(latest.announce!.createdAt, Math.floor(Date.now() / 1000)) + 60;
      const event = signEvent(
        createEventTemplate({
          kind: 'xp.endpoint.announce',
          content,
          tags: [['x25519', devKey.keys.x25519]],
          created_at: createdAt,
          expiration: createdAt + 900,
        }),
        devKey.ed25519.secretKey,
        nodeSignatures,
      );
      const pool = await RelayPool.open({ urls: [relayUrl] });
      await pool.publish(event);
      await pool.close();
      const view = await adapterView((e) => e.announce?.id === event.id);
      expect(view.chain).toMatchObject({
        root: '<script>window.__pwned=2</script>',
        links: [{ delegatedKey: attack, capabilities: [attack, '<b>bold</b>'], notBefore: '<i>soon</i>' }],
        verdict: { checked: true, ok: false, code: 'shape' },
      });
      // not_before is not a number: no window is claimed.
      expect(view.chain!.window).toBeUndefined();

      const browser = await chromium.launch({ executablePath: lookup.path ?? '', args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        page.setDefaultTimeout(20_000);
        await page.goto(web.url);
        await page.evaluate("location.hash = '#/identity'");
        await page.locator('#identity-body .chain-root', { hasText: '<script>' }).waitFor();
        const body = page.locator('#identity-body');
        expect(await body.textContent()).toContain(attack);
        expect(await body.textContent()).toContain('refused (shape at link 0)');
        expect(await body.locator('img, script, svg, b, i').count()).toBe(0);
        expect(await page.evaluate('window.__pwned')).toBeUndefined();
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
