// A real Direction 1 stack for tests: a relay on loopback, the official filesystem MCP server (or
// another stdio server, `options.command`) as a child process, an endpoint with a state database, and a client with its own keys and pool.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity, type Identity, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { catalogPage, parseCatalogRequest } from '@xprotocol/registry';
import { type Relay, startRelay } from '@xprotocol/relay';
import { RelayPool } from '@xprotocol/relay-client';
import { translateSource } from '@xprotocol/translate';
import {
  type AccessConfig,
  AccessPolicy,
  compileArgumentValidator,
  type EndpointCatalog,
  type EndpointTool,
  SchemaSearch,
  StateDatabase,
  UpstreamSession,
  XpCaller,
  XpEndpoint,
  type XpEndpointOptions,
} from '../../src/index.js';

export const FS_SERVER = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
export const backends = { signatures: nodeSignatures, cipher: nodeCipher };

export interface Stack {
  dir: string;
  relay: Relay;
  adapter: Identity;
  client: Identity;
  upstream: UpstreamSession;
  upstreamCalls: () => number;
  endpoint: XpEndpoint;
  state: StateDatabase;
  adapterPool: RelayPool;
  clientPool: RelayPool;
  caller: XpCaller;
  catalog: EndpointCatalog;
  /** Starts a second endpoint on the same state database and keys (a restarted adapter). */
  restart(): Promise<XpEndpoint>;
  close(): Promise<void>;
}

export async function startStack(
  options: {
    requestsPerMinute?: number;
    grants?: string[];
    /** The upstream server's command line, wrapped as `com.test.fs`; default: the filesystem server. */
    command?: string[];
    /** The endpoint's access section; default: the client granted `grants`. */
    access?: AccessConfig;
    /** Hears what became of each event (XpEndpointOptions.onOutcome). */
    onOutcome?: XpEndpointOptions['onOutcome'];
    /** Serves this catalog instead of the upstream's translated tools (discovery tests). */
    catalog?: EndpointCatalog;
    /** The endpoint's clock, in ms (XpEndpointOptions.now); default the system's. */
    now?: () => number;
  } = {},
): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'xp-bridge-'));
  writeFileSync(join(dir, 'hello.txt'), 'hello from the filesystem\n');
  const relay = await startRelay({ port: 0 });
  const adapter = generateIdentity();
  const client = generateIdentity();
  const statePath = join(dir, 'state.db');
  let state = new StateDatabase(statePath);
  let adapterPool = await RelayPool.open({
    urls: [relay.url],
    outbox: state.outbox(),
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  const upstream = new UpstreamSession({
    name: 'fs',
    transport: { type: 'stdio', command: options.command ?? [process.execPath, FS_SERVER, dir] },
  });
  let calls = 0;
  const callTool = upstream.callTool.bind(upstream);
  upstream.callTool = (...args) => {
    calls++;
    return callTool(...args);
  };
  const tools = await upstream.listTools();
  const translation = translateSource({
    name: 'fs',
    namespace: 'com.test.fs',
    tools,
    adapterVersion: '0.0.0-test',
  });
  const byKind = new Map<string, EndpointTool>();
  for (const contract of translation.contracts) {
    const source = contract.source as { mcp_tool: string };
    byKind.set(contract.kind, {
      contract,
      source: 'fs',
      upstreamName: source.mcp_tool,
      validate: compileArgumentValidator(contract.payload),
    });
  }
  const search = new SchemaSearch();
  search.sync(
    translation.contracts.map((contract) => ({
      document: {
        id: contract.kind,
        name: (contract.source as { mcp_tool: string }).mcp_tool,
        description: contract.description,
        inputSchema: contract.payload,
        namespace: 'com.test.fs',
      },
      fingerprint: `${contract.kind}@${contract.version}`,
    })),
  );
  const catalog: EndpointCatalog = options.catalog ?? {
    describe: (query) => search.describe(query),
    tool: (kind) => byKind.get(kind),
    page: (request) => catalogPage(translation.contracts, parseCatalogRequest(request)),
  };
  const access = new AccessPolicy(
    options.access ?? {
      default: 'deny',
      grants: [{ key: client.keys.ed25519, capabilities: options.grants ?? ['com.test.fs.read'] }],
    },
  );
  const makeEndpoint = (s: StateDatabase, pool: RelayPool) =>
    new XpEndpoint({
      identity: adapter,
      pool,
      state: s,
      catalog,
      upstreams: new Map([['fs', upstream]]),
      access,
      requestsPerMinute: new Map([['fs', options.requestsPerMinute ?? 600]]),
      ...(options.onOutcome && { onOutcome: options.onOutcome }),
      ...(options.now && { now: options.now }),
      ...backends,
    });
  let endpoint = makeEndpoint(state, adapterPool);
  await endpoint.start();
  const clientPool = await RelayPool.open({ urls: [relay.url], reconnect: { initialMs: 50, maxMs: 200 } });
  const caller = new XpCaller({ identity: client, pool: clientPool, ...backends });
  const stack: Stack = {
    dir,
    relay,
    adapter,
    client,
    upstream,
    upstreamCalls: () => calls,
    get endpoint() {
      return endpoint;
    },
    get state() {
      return state;
    },
    get adapterPool() {
      return adapterPool;
    },
    clientPool,
    caller,
    catalog,
    async restart() {
      await endpoint.stop();
      await adapterPool.close();
      await state.close();
      state = new StateDatabase(statePath);
      adapterPool = await RelayPool.open({
        urls: [relay.url],
        outbox: state.outbox(),
        reconnect: { initialMs: 50, maxMs: 200 },
      });
      endpoint = makeEndpoint(state, adapterPool);
      return endpoint;
    },
    async close() {
      await endpoint.stop();
      await clientPool.close();
      await adapterPool.close();
      await state.close();
      await upstream.close();
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Publishes `request` from the stack's client and resolves with the endpoint's answer as the relay delivers it. */
export function answerOnRelay(stack: Stack, request: XpEvent): Promise<XpEvent> {
  return new Promise((resolve, reject) => {
    const subscription = stack.clientPool.subscribe(
      [{ '#e': [request.id], authors: [stack.adapter.keys.ed25519] }],
      {
        onEvent: (event) => {
          subscription.close();
          resolve(event);
        },
      },
    );
    stack.clientPool.publish(request).catch(reject);
  });
}
