// The minimal configuration file "works as written" (docs/design.md §13): it validates, starts,
// creates its key file, warns that access is empty, and retries unreachable hosts with a clear
// message. The relay URL is the one change: tests never reach outside this machine, so it points at
// a loopback port where nothing listens; npm runs offline so `npx my-mcp-server` downloads nothing.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Processes } from './support/processes.js';

const procs = new Processes();
afterAll(() => procs.close());

const MINIMAL = `identity:
  key_file: ~/.xprotocol/adapter.key
  display_name: "My Adapter"

relay:
  urls:
    - ws://127.0.0.1:9

mcp_sources:
  - name: my-server
    transport: stdio
    command: npx my-mcp-server
    xprotocol_namespace: com.myorg.myserver
`;

describe('the minimal configuration (docs/design.md §13)', () => {
  it('validates', async () => {
    const config = procs.file('minimal.yml', MINIMAL);
    const { code, stderr } = await procs.cli(['validate', '--config', config]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/access/);
  });

  it('starts, creates the key file 0600, and retries the unreachable relay and server with clear messages', async () => {
    const home = join(procs.dir, 'home');
    const config = procs.file('minimal-start.yml', MINIMAL);
    // The child gets HOME but not npm_config_* (only a default environment reaches it): its npm
    // reads this file. Offline, from no registry, npx fails to fetch and is retried; with the
    // network it would get the registry's 404 for this made-up package, which is not retried.
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, '.npmrc'), 'registry=http://127.0.0.1:9/\noffline=true\nyes=true\n');
    const { logs, child } = await procs.adapter(config, { HOME: home });
    const keyFile = join(home, '.xprotocol', 'adapter.key');
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const deadline = Date.now() + 20_000;
    const seen = () => ({
      relay: logs.some((l) => l.includes('cannot reach relay ws://127.0.0.1:9') && l.includes('retrying')),
      source: logs.some(
        (l) => l.includes('cannot reach MCP source \\"my-server\\"') && l.includes('retrying'),
      ),
    });
    while ((!seen().relay || !seen().source) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(seen()).toEqual({ relay: true, source: true });
    expect(logs.some((l) => l.includes('"event":"ready"'))).toBe(true);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});
