/**
 * How each documented command line (see _doc-commands.ts) is run against the globally installed
 * bins: to its end (exit 0), as a server (started, stopped with Ctrl-C once it prints its ready
 * line, exit 0), or not at all, with the reason. Keyed by the line as written (continuations
 * joined, comment dropped); a documented line missing here fails tarballs.test.ts. The lines
 * that run from a clone (`pnpm …`) are docs-commands.test.ts's.
 * @module
 */

/** What a run needs before it starts (see _installed-docs.ts). */
export type Fixture =
  /** a relay from the install, on a free port: `ws://127.0.0.1:8765` in the line is its URL */
  | 'relay'
  /** docs/config.md's adapter B started from the install, `FS_ADAPTER_KEY` its key (needs the relay) */
  | 'adapter-b'
  /** `caller.chain.json`: a chain from org-root.key to client.key, made with the installed `register` */
  | 'caller-chain';

/** How one documented line is run. */
export type Plan =
  | { run: 'exit'; stdout?: RegExp; needs?: Fixture[] }
  | { run: 'serve'; ready: RegExp; stopped?: RegExp; needs?: Fixture[] }
  | { run: 'excluded'; reason: string };

const HELP = { run: 'exit', stdout: /^usage:/im } as const;
const DEMO = { run: 'exit', stdout: /hello/i } as const;
const KEYGEN = { run: 'exit', stdout: /"ed25519":"ed25519:[0-9a-f]{64}"/ } as const;
const RELAY = { run: 'serve', ready: /^ws:\/\/127\.0\.0\.1:\d+$/m } as const;
// The devserver's banner ends with this once everything serves; its last line is `stopped`.
const DEVSERVER = { run: 'serve', ready: /Ctrl-C stops/, stopped: /^stopped$/m } as const;
const CONFORMANT = { run: 'exit', stdout: /^CONFORMANT: /m } as const;
const SYNOPSIS = {
  run: 'excluded',
  reason:
    'a synopsis: FILE, SOURCE, TOOL, HASH and NAME are placeholders, not values (docs-commands.test.ts checks its flags against --help)',
} as const;
const MCP_PROXY = {
  run: 'excluded',
  reason:
    "an MCP client's stdio server: it needs a running devserver and a client on stdin (apps/devserver's mcp-command.test.ts runs it with both)",
} as const;
const SERVER_MEMORY = {
  run: 'excluded',
  reason:
    'needs the network: npx -y downloads @modelcontextprotocol/server-memory, which no published package depends on (so it is not in the install nor in npm’s cache)',
} as const;

/** Every documented line a user of the published packages types, and how it is run. */
export const PLANS: Readonly<Record<string, Plan>> = {
  // README.md
  'npx @xprotocol/mcp-adapter --help': HELP,
  'npx @xprotocol/devserver': DEVSERVER,
  'npx @xprotocol/devserver --demo': DEMO,
  'xprotocol-adapter --help': HELP,
  'xprotocol-devserver --demo': DEMO,
  'xprotocol-relay --port 8765': RELAY,
  'xprotocol-adapter keygen --output ~/.xprotocol/client.key': KEYGEN,
  'xprotocol-adapter validate --config xprotocol-mcp-adapter.yml': { run: 'exit' },
  'xprotocol-adapter start --config xprotocol-mcp-adapter.yml': {
    run: 'serve',
    ready: /adapter ready/,
    needs: ['relay'],
  },
  'xprotocol-adapter call --key ~/.xprotocol/client.key --relay ws://127.0.0.1:8765  --to "$FS_ADAPTER_KEY" --kind com.test.fs.read_text_file --payload \'{"path":"/tmp/hello.txt"}\'':
    { run: 'exit', stdout: /Hello/, needs: ['relay', 'adapter-b'] },
  'xprotocol-adapter gateway -- npx -y @modelcontextprotocol/server-memory': SERVER_MEMORY,
  // docs/cli.md
  'xprotocol-adapter keygen --output ~/.xprotocol/adapter.key [--force]': KEYGEN,
  'xprotocol-adapter register --key ~/.xprotocol/department.key --parent-key ~/.xprotocol/org-root.key  --capabilities "com.acme.docs.*,com.acme.crm.read" --expires 365d --output department.chain.json':
    { run: 'exit' },
  'xprotocol-adapter register --key ~/.xprotocol/adapter.key --parent-key ~/.xprotocol/department.key  --parent-delegation department.chain.json --capabilities "com.acme.docs.read,com.acme.crm.read"  --output adapter.chain.json':
    { run: 'exit' },
  'xprotocol-adapter rotate --key ~/.xprotocol/adapter.key --new-key ~/.xprotocol/adapter-2027.key --grace 7d  --output adapter.rotation.json --relay ws://127.0.0.1:8765':
    { run: 'exit', needs: ['relay'] },
  'xprotocol-adapter revoke --key ~/.xprotocol/department.key --delegation adapter.chain.json --output adapter.revoked.json':
    { run: 'exit' },
  'xprotocol-adapter revoke --key ~/.xprotocol/org-root.key --delegation caller.chain.json --relay ws://127.0.0.1:8765':
    { run: 'exit', needs: ['relay', 'caller-chain'] },
  'xprotocol-adapter start --config xprotocol-mcp-adapter.yml [--log-format auto|pretty|json]': {
    run: 'serve',
    ready: /adapter ready/,
    needs: ['relay'],
  },
  'xprotocol-adapter status --config xprotocol-mcp-adapter.yml [--json]': {
    run: 'exit',
    stdout: /ed25519:[0-9a-f]{64}/,
    needs: ['relay', 'adapter-b'],
  },
  'xprotocol-adapter gateway [--stdio "<command line>"]... [--url <http(s) URL>]... [-- <command> [args…]]  [--port 8767] [--token-env NAME] [--env NAME]... [--rate-limit 600] [--print-config]':
    SYNOPSIS,
  'xprotocol-adapter validate --config FILE [--connect]': SYNOPSIS,
  'xprotocol-adapter schemas --config FILE [--json | --gbnf]': SYNOPSIS,
  'xprotocol-adapter test-mcp --config FILE --source NAME': SYNOPSIS,
  'xprotocol-adapter login SOURCE --config FILE': SYNOPSIS,
  'xprotocol-adapter approve SOURCE [TOOL] --config FILE --dry-run': SYNOPSIS,
  'xprotocol-adapter approve SOURCE [TOOL] --config FILE --hash HASH [--hash HASH …]': SYNOPSIS,
  'xprotocol-adapter call --key ~/.xprotocol/client.key --relay ws://127.0.0.1:8765  --to "$FS_ADAPTER_KEY" --kind com.test.fs.read_text_file --payload \'{"path":"/tmp/hello.txt"}\' [--timeout-ms 30000]  [--trust-root ed25519:…]…':
    { run: 'exit', stdout: /Hello/, needs: ['relay', 'adapter-b'] },
  'xprotocol-devserver [--relay-port 8765] [--console-port 0]': DEVSERVER,
  'xprotocol-devserver --mcp-command "npx -y @modelcontextprotocol/server-filesystem /tmp" --namespace com.demo.fs [--console-port 0 | --no-console]':
    DEVSERVER,
  'xprotocol-devserver --config xprotocol-mcp-adapter.yml [--relay-port 8765] [--db FILE] [--key FILE] [--no-watch] [--console-port 0 | --no-console]':
    DEVSERVER,
  'xprotocol-devserver --mcp-proxy [--relay-port 8765] [--key FILE]': MCP_PROXY,
  'xprotocol-relay --port 8765 [--host 127.0.0.1] [--db events.db] [--retention 3600] [--rate 6000]  [--allow-origin ORIGIN]... [--max-connections-per-ip 128] [--max-connections 1024]  [--max-bytes-per-key 16777216] [--max-stored-bytes 134217728]  [--admin-port 9465] [--admin-host 127.0.0.1] [--admin-token-env NAME] [--admin-allow-remote]':
    RELAY,
  'xprotocol-conformance --adapter-command "xprotocol-adapter" [--json] [--junit report.xml] [--only NAME]':
    CONFORMANT,
  'xprotocol-conformance --endpoint ed25519:… --relay ws://127.0.0.1:8765 [--mcp-url URL] [--keys DIR] [--calls FILE]':
    {
      run: 'excluded',
      reason:
        'a synopsis: ed25519:… stands for a running adapter’s key (docs/conformance.md’s endpoint walk-through is excluded below too)',
    },
  'xprotocol-adapter dns-record --config adapter.yml [--domain acme.example] [--json]': {
    run: 'excluded',
    reason:
      'a synopsis: the docs’ adapter.yml sets no discovery.dns_name, so the line needs its optional --domain, and runs drop optional groups; the --key line below runs the same command to exit 0',
  },
  'xprotocol-adapter dns-record --key ~/.xprotocol/adapter.key --domain acme.example [--json]': {
    run: 'exit',
    stdout: /^_xprotocol\.acme\.example\. IN TXT "v=xp1; k=ed25519:[0-9a-f]{64}"$/m,
  },
  'xprotocol-conformance --print-config [--keys DIR] [--relay URL]': { run: 'exit', stdout: /^relay:/m },
  'xprotocol-conformance --list': { run: 'exit', stdout: /11\. gbnf/ },
  'xprotocol-conformance relay --url ws://127.0.0.1:8765 [--json]': {
    run: 'exit',
    stdout: /^CONFORMANT: 7\/8 relay checks passed \(1 skipped\)/m,
    needs: ['relay'],
  },
  // docs/conformance.md
  'npx @xprotocol/conformance relay --url ws://127.0.0.1:8765': {
    run: 'exit',
    stdout: /^CONFORMANT: 7\/8 relay checks passed/m,
    needs: ['relay'],
  },
  'npx @xprotocol/conformance --adapter-command "npx -y @xprotocol/mcp-adapter"': CONFORMANT,
  'npx @xprotocol/conformance --adapter-command "node /abs/path/to/adapter/dist/bin.js" --json': {
    run: 'excluded',
    reason: 'a placeholder: /abs/path/to/adapter is where the reader’s own build is',
  },
  'npx @xprotocol/conformance --adapter-command "my-adapter" --only signatures --junit report.xml': {
    run: 'excluded',
    reason: 'a placeholder: my-adapter stands for the reader’s own adapter command',
  },
  'npx @xprotocol/conformance --list': { run: 'exit', stdout: /11\. gbnf/ },
  'npx @xprotocol/conformance --print-config --keys ./conf-keys --relay ws://127.0.0.1:8765 > adapter.yml': {
    run: 'exit',
  },
  'npx @xprotocol/conformance --endpoint ed25519:<the adapter key> --relay ws://127.0.0.1:8765  --mcp-url http://127.0.0.1:8767/mcp --keys ./conf-keys --calls ./conf-keys/calls.jsonl':
    {
      run: 'excluded',
      reason:
        'a placeholder: <the adapter key> is the key `my-adapter start` logs, and my-adapter is the reader’s own adapter',
    },
  'npx @xprotocol/conformance --endpoint ed25519:<the endpoint key> --relay ws://127.0.0.1:8765 --keys ./conf-keys':
    {
      run: 'excluded',
      reason:
        'a placeholder: <the endpoint key> is the key the native endpoint prints; examples/native-endpoint’s test runs the suite against the example endpoint with these flags',
    },
  // apps/adapter/README.md
  'npx @xprotocol/mcp-adapter keygen --output ./adapter.key': KEYGEN,
  'xprotocol-adapter validate --config adapter.yml': { run: 'exit' },
  'xprotocol-adapter schemas --config adapter.yml': { run: 'exit', stdout: /com\.demo\.fs\.read_text_file/ },
  'xprotocol-adapter start --config adapter.yml': { run: 'serve', ready: /adapter ready/, needs: ['relay'] },
  // apps/conformance/README.md
  'npx @xprotocol/conformance --adapter-command "xprotocol-adapter"': {
    run: 'excluded',
    reason:
      'the same run as docs/cli.md’s `xprotocol-conformance --adapter-command "xprotocol-adapter"` (run above) through npx, which docs/conformance.md’s line runs too; a third run of the suite (about 40 s) would prove nothing more',
  },
  // docs/deploy.md
  'xprotocol-relay --port 7447 --db postgres://relay:${PG_PASSWORD}@db.internal:5432/xp': {
    run: 'excluded',
    reason:
      'needs a Postgres server at db.internal: packages/relay’s relay-bin-postgres tests run the same flags against a Postgres they start',
  },
  'xprotocol-adapter call --key ./client.key --relay ws://127.0.0.1:7447 --relay ws://127.0.0.1:7449  --to "$REPLICA_KEY" --kind com.test.fs.read_text_file --payload "{\\"path\\":\\"$FS_ROOT/hello.txt\\"}"':
    {
      run: 'excluded',
      reason:
        'the last step of a script that needs a Postgres server and three relays and three replicas started by the lines before it; apps/adapter’s e2e-replicas-kill test runs that deployment against a Postgres it starts',
    },
  // apps/devserver/README.md
  'xprotocol-devserver': DEVSERVER,
  'xprotocol-devserver --mcp-command "npx @modelcontextprotocol/server-filesystem /tmp" --namespace com.demo.fs':
    DEVSERVER,
  'xprotocol-devserver --config ./xprotocol-mcp-adapter.yml': DEVSERVER,
  'xprotocol-devserver --mcp-proxy': MCP_PROXY,
  // packages/endpoint/README.md
  'xprotocol-adapter call --key client.key --relay ws://127.0.0.1:8765 --to ed25519:<the endpoint key> --kind demo.notes.read_note --payload \'{"title":"welcome"}\'':
    {
      run: 'excluded',
      reason:
        'a placeholder: <the endpoint key> is the key a running native endpoint prints; examples/native-endpoint’s test runs this call against the example endpoint',
    },
};
