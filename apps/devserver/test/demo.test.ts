// The README's main job: `xprotocol-devserver --demo` as a real child process (the built bin).
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_KIND, DEMO_TEXT } from '../src/demo.js';
import { Sandbox } from './support/children.js';

const sandbox = new Sandbox();
afterAll(() => sandbox.close());

describe('xprotocol-devserver --demo', () => {
  it('makes one real call through the relay, prints the file text on stdout, exits 0 and leaves nothing behind', async () => {
    const { code, stdout, stderr } = await sandbox.run(['--demo']);
    expect(code, stderr).toBe(0);
    // stdout is exactly one JSON document: server-filesystem's CallToolResult with the file's text.
    const payload = JSON.parse(stdout) as { content: { type: string; text: string }[] };
    expect(payload.content[0]).toEqual({ type: 'text', text: DEMO_TEXT });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    // The narrated trace on stderr: keys, relay URL, the call kind, the answer id, the round trip.
    expect(stderr).toMatch(/^relay +ws:\/\/127\.0\.0\.1:\d+ /m);
    expect(stderr).toMatch(
      /^adapter +ed25519:[0-9a-f]{64} wraps server-filesystem as com\.demo\.fs \(\d+ tools\)/m,
    );
    expect(stderr).toMatch(/^client +ed25519:[0-9a-f]{64} granted com\.demo\.fs\.read/m);
    expect(stderr).toMatch(
      /^resolve +xp\.endpoint\.announce [0-9a-f]{12}… gives x25519 key x25519:[0-9a-f]{64}/m,
    );
    expect(stderr).toContain(`call     ${DEMO_KIND} {"path":`);
    expect(stderr).toMatch(
      new RegExp(
        `^answer +${DEMO_KIND.replaceAll('.', '\\.')}\\.result [0-9a-f]{12}… opened and verified, round trip \\d+ ms$`,
        'm',
      ),
    );
    // The event log saw the call and its answer, sender → recipient, and never a payload.
    expect(stderr).toMatch(
      new RegExp(`  ${DEMO_KIND.replaceAll('.', '\\.')} +[0-9a-f]{8} → [0-9a-f]{8} +[0-9.]+ k?B  OK$`, 'm'),
    );
    expect(stderr).not.toContain(DEMO_TEXT.trim());
    // HOME and TMPDIR are the sandbox: the demo wrote nothing to ~ and removed its temp directory.
    expect(readdirSync(sandbox.dir)).toEqual([]);
  });

  it('exits 1 naming the step that failed (here: the relay port is taken), nothing on stdout, nothing left behind', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, stdout, stderr } = await sandbox.run(['--demo', '--relay-port', String(port)]);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(
        `xprotocol-devserver: demo step "start the relay and the adapter" failed: cannot start the local relay: 127.0.0.1:${port} is already in use`,
      );
      expect(stdout).toBe('');
      expect(readdirSync(sandbox.dir)).toEqual([]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
