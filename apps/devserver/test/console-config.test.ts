// The web console of `xprotocol-devserver --config FILE` (access denied by default): the Config
// page's data (secrets redacted, the last reload's validation errors at file:line:column), and
// an access refusal seen from Try a call when it signs with a key no grant names.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _quoteCommandLine } from '../src/_command-quote.js';
import { type Child, FS_SERVER, Sandbox } from './support/children.js';
import { ConsoleClient } from './support/console-client.js';

const sandbox = new Sandbox();
const SECRET = 'console-must-never-show-this';
let dev: Child;
let web: ConsoleClient;
let configPath: string;

const config = (extra = '') => `identity:
  key_file: ./ignored.key
relay:
  urls: [ws://relay.example.invalid:9]
mcp_sources:
  - name: fs
    transport: stdio
    command: ${_quoteCommandLine([process.execPath, FS_SERVER, sandbox.dir])}
    xprotocol_namespace: com.test.fs
    env:
      API_TOKEN: ${SECRET}
access:
  default: deny
state_database: ./state.db
logging:
  level: warn
  format: text
${extra}`;

beforeAll(async () => {
  sandbox.file('hello.txt', 'hello\n');
  configPath = sandbox.file('devserver.yml', config());
  dev = sandbox.spawn(['--config', configPath, '--relay-port', '0', '--key', sandbox.path('dev.key')]);
  await dev.waitForStderr(/"mcpServers"/);
  web = new ConsoleClient(dev);
}, 60_000);
afterAll(() => sandbox.close());

describe('the console of --config', () => {
  it('serves the running configuration with the secrets redacted', async () => {
    const response = await web.request('/api/config', { headers: web.auth });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain(SECRET);
    const view = JSON.parse(response.body) as {
      origin: string;
      config: { mcpSources: { env: Record<string, string> }[] };
    };
    expect(view.origin).toBe(configPath);
    expect(view.config.mcpSources[0]!.env).toEqual({ API_TOKEN: '[redacted]' });
  });

  it('signs with the dev client key (granted), or a fresh key whose call is refused with the reason', async () => {
    const call = (signer: string) =>
      web.json<{ ok: boolean; error?: { code: string; message: string }; payload?: unknown }>('/api/call', {
        kind: 'com.test.fs.read_text_file',
        payload: { path: sandbox.path('hello.txt') },
        signer,
      });
    expect((await call('dev')).ok).toBe(true);
    const refused = await call('stranger');
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({
      code: 'AUTHORIZATION_INSUFFICIENT',
      message: expect.stringContaining('com.test.fs.read is required'),
    });
  });

  it("shows the last reload's validation errors with file:line:column, and the running adapter is kept", async () => {
    writeFileSync(configPath, config('unknown_key: 1\n').replace('default: deny', 'default: sometimes'));
    await dev.waitForStderr(/the running adapter is kept/);
    const view = await web.json<{
      lastReload: {
        ok: boolean;
        message: string;
        issues: { file: string; line: number; column: number; path: string }[];
      };
    }>('/api/config');
    expect(view.lastReload.ok).toBe(false);
    expect(view.lastReload.message).toContain('the running adapter is kept');
    expect(view.lastReload.issues.length).toBeGreaterThanOrEqual(2);
    const access = view.lastReload.issues.find((i) => i.path === 'access.default');
    expect(access).toMatchObject({ file: configPath, line: 13, column: 12 });
    for (const issue of view.lastReload.issues) expect(issue.line, issue.path).toBeGreaterThan(0);
    // The catalog still answers from the adapter that kept running.
    const catalog = await web.json<{ tools: unknown[] }>('/api/catalog');
    expect(catalog.tools.length).toBeGreaterThan(0);
  });
});
