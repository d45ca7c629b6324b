/**
 * The adapter under test and everything the suite runs around it: a real relay
 * (`@xprotocol/relay`), the injector relay, the peer endpoint, the suite's keys and the XP and
 * MCP clients. Two ways in: `--adapter-command` (the suite writes the configuration, starts the
 * adapter and can start a twin or restart it) or `--endpoint` (someone else runs the adapter with
 * the configuration `--print-config` prints).
 * @module
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Delegation, generateIdentity, type PublicIdentity, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, writeKeyFile } from '@xprotocol/crypto/node';
import { type Relay, startRelay } from '@xprotocol/relay';
import { MAX_WELL_KNOWN_BYTES, parseWellKnownDocument, WELL_KNOWN_PATH } from '@xprotocol/wire';
import { type AdapterProcess, startAdapter } from './adapter-process.js';
import { splitCommand } from './command-line.js';
import { InjectorRelay } from './injector-relay.js';
import { PeerEndpoint } from './peer-endpoint.js';
import type { Profile } from './profile.js';
import { suiteConfig } from './suite-config.js';
import { adapterChain } from './suite-delegation.js';
import { type SuiteKeys, suiteKeys } from './suite-keys.js';
import { XpClient } from './xp-client.js';

/** How to reach the adapter under test. */
export interface TargetOptions {
  /** `"CMD ARGS"`: the suite starts `CMD ARGS start --config FILE`. */
  adapterCommand?: string;
  /** `ed25519:…` or `xp://host[:port]`: an adapter someone else runs. */
  endpoint?: string;
  /** The relay of `--endpoint`. */
  relay?: string;
  /** The MCP face of `--endpoint` (Streamable HTTP URL). */
  mcpUrl?: string;
  /** The test server's calls file of `--endpoint` (same machine). */
  callsFile?: string;
  /** The injector relay's port of `--endpoint` (as in the printed configuration). */
  injectPort?: number;
  /** Where the suite's keys live (created when missing). */
  keysDir?: string;
  /** Progress messages. */
  log?: (message: string) => void;
}

/** One recorded call of the test server. */
export interface RecordedCall {
  /** The tool of a `tools/call`; a `prompts/get` names its `prompt`, a `resources/read` its `resource`. */
  tool?: string;
  prompt?: string;
  resource?: string;
  arguments: Record<string, unknown>;
}

const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };
const HERE = dirname(fileURLToPath(import.meta.url));

/** The test server's command line: the built entry beside this one. */
export function testServerCommand(): string[] {
  return [process.execPath, join(HERE, 'test-server.js')];
}

/**
 * A loopback port free a moment ago, chosen below the kernel's ephemeral range (32768–60999 on
 * Linux): a port bound to 0 and released comes from that range, where any process's outbound
 * connection (another suite's, running beside this one) can take it before the caller binds it.
 * Below it, only another explicit bind can, and two picks at random rarely meet.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await _canBind(port)) return port;
  }
  throw new Error('no free loopback port between 20000 and 31999 after 50 tries');
}

/** Whether `port` can be bound on 127.0.0.1 right now (the probe is closed again). */
function _canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The running target. Create with {@link Target.open}; always {@link Target.close}. */
export class Target {
  readonly mode: 'command' | 'endpoint';
  readonly keys: SuiteKeys;
  readonly relayUrl: string;
  readonly injector: InjectorRelay | undefined;
  readonly peer: PeerEndpoint;
  readonly xp: XpClient;
  readonly callsFile: string | undefined;
  readonly mcpUrl: string | undefined;
  /** The adapter's identity (its announce gives the X25519 key). */
  adapter!: PublicIdentity;
  /** The announce the target was found by (the newest when the suite started). */
  announceEvent!: XpEvent;
  /**
   * Which checks apply (docs/conformance.md): `adapter` for an adapter wrapping the suite's test MCP
   * server, `native` for an endpoint that serves its own tools. The command line sets it.
   */
  profile: Profile = 'adapter';
  /**
   * Whether the adapter runs with the delegated-identity settings (its chain file, the suite's root
   * as a trusted issuer), or why not: an adapter that refuses them is started again without, and the
   * optional checks report the behaviour absent. Under `--endpoint` the printed configuration has them.
   */
  delegation: { configured: true } | { configured: false; reason: string } = { configured: true };
  /** Command mode, with the delegation settings: the chain file the adapter was given. */
  adapterChain: readonly Delegation[] | undefined;
  readonly #relay: Relay | undefined;
  readonly #dir: string;
  readonly #argv: string[] | undefined;
  readonly #log: (message: string) => void;
  #process: AdapterProcess | undefined;
  #config: string | undefined;
  #mcp: Client | undefined;
  readonly #extra: AdapterProcess[] = [];

  private constructor(init: {
    mode: 'command' | 'endpoint';
    keys: SuiteKeys;
    relayUrl: string;
    relay: Relay | undefined;
    injector: InjectorRelay | undefined;
    peer: PeerEndpoint;
    xp: XpClient;
    callsFile: string | undefined;
    mcpUrl: string | undefined;
    dir: string;
    argv: string[] | undefined;
    log: (message: string) => void;
  }) {
    this.mode = init.mode;
    this.keys = init.keys;
    this.relayUrl = init.relayUrl;
    this.#relay = init.relay;
    this.injector = init.injector;
    this.peer = init.peer;
    this.xp = init.xp;
    this.callsFile = init.callsFile;
    this.mcpUrl = init.mcpUrl;
    this.#dir = init.dir;
    this.#argv = init.argv;
    this.#log = init.log;
  }

  /** Starts everything and waits until the adapter has announced itself. */
  static async open(options: TargetOptions): Promise<Target> {
    const log = options.log ?? (() => undefined);
    const dir = mkdtempSync(join(tmpdir(), 'xp-conformance-'));
    const keys = await suiteKeys(options.keysDir);
    if (options.adapterCommand) {
      const argv = splitCommand(options.adapterCommand);
      const relay = await startRelay({ host: '127.0.0.1', port: 0 });
      const injector = await InjectorRelay.start();
      const peer = await PeerEndpoint.start(relay.url, keys.peer);
      const xp = await XpClient.open([relay.url]);
      const mcpPort = await freePort();
      const target = new Target({
        mode: 'command',
        keys,
        relayUrl: relay.url,
        relay,
        injector,
        peer,
        xp,
        callsFile: join(dir, 'calls.jsonl'),
        mcpUrl: `http://127.0.0.1:${mcpPort}/mcp`,
        dir,
        argv,
        log,
      });
      const identity = generateIdentity(BACKENDS);
      await writeKeyFile(join(dir, 'adapter.key'), identity);
      target.adapterChain = adapterChain(keys.issuer, identity.keys.ed25519, Math.floor(Date.now() / 1000));
      writeFileSync(join(dir, 'adapter-chain.json'), JSON.stringify(target.adapterChain));
      target.#config = target.#writeConfig('adapter', mcpPort, join(dir, 'adapter-chain.json'));
      log(
        `relay ${relay.url}, injector ${injector.url}; starting ${argv.join(' ')} start --config ${target.#config}`,
      );
      try {
        target.#process = await startAdapter(argv, target.#config, dir);
      } catch (error) {
        // Delegated identity is optional: an adapter that refuses its settings is tried without.
        const reason = `the adapter did not start with identity.parent_delegation_event and access.trusted_issuers: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`;
        log(`${reason}; starting it again without them`);
        target.delegation = { configured: false, reason };
        target.adapterChain = undefined;
        target.#config = target.#writeConfig('adapter', mcpPort);
        target.#process = await startAdapter(argv, target.#config, dir);
      }
      await target.#awaitAnnounce(identity.keys.ed25519);
      return target;
    }
    if (!options.endpoint || !options.relay) {
      throw new Error('expected --adapter-command "CMD ARGS", or --endpoint with --relay');
    }
    const injector = await InjectorRelay.start(options.injectPort ?? 0);
    const peer = await PeerEndpoint.start(options.relay, keys.peer);
    const xp = await XpClient.open([options.relay]);
    const target = new Target({
      mode: 'endpoint',
      keys,
      relayUrl: options.relay,
      relay: undefined,
      injector,
      peer,
      xp,
      callsFile: options.callsFile,
      mcpUrl: options.mcpUrl,
      dir,
      argv: undefined,
      log,
    });
    await target.#awaitAnnounce(await _endpointKey(options.endpoint));
    return target;
  }

  #writeConfig(name: string, mcpPort: number, chainFile?: string): string {
    const path = join(this.#dir, `${name}.yml`);
    writeFileSync(
      path,
      suiteConfig({
        keyFile: join(this.#dir, `${name}.key`),
        relays: [this.relayUrl, ...(this.injector ? [this.injector.url] : [])],
        testServer: testServerCommand(),
        callsFile: this.callsFile ?? join(this.#dir, 'calls.jsonl'),
        clientKey: this.keys.client.keys.ed25519,
        peerKey: this.peer.identity.keys.ed25519,
        peerRelay: this.relayUrl,
        mcpPort,
        stateDatabase: join(this.#dir, `${name}-state.db`),
        ...(this.delegation.configured
          ? {
              delegation: {
                chainFile,
                parentKey: this.keys.issuer.keys.ed25519,
                trustedIssuer: this.keys.issuer.keys.ed25519,
              },
            }
          : {}),
      }),
    );
    return path;
  }

  async #awaitAnnounce(key: string): Promise<void> {
    const resolved = await this.xp.resolve(key, 30_000);
    if (!resolved) throw new Error(`no xp.endpoint.announce from ${key} on ${this.relayUrl} within 30 s`);
    this.adapter = resolved.keys;
    this.announceEvent = resolved.announce;
    // The adapter also subscribes on the injector relay; wait until it did.
    const deadline = Date.now() + 15_000;
    while (this.injector && this.injector.subscriptionCount() === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The test server's recorded calls, or undefined when the calls file cannot be read. */
  readCalls(): RecordedCall[] | undefined {
    if (!this.callsFile) return undefined;
    if (!existsSync(this.callsFile)) return [];
    return readFileSync(this.callsFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as RecordedCall);
  }

  /** Whether some recorded call carries `marker` in its arguments. */
  reached(marker: string): boolean | undefined {
    const calls = this.readCalls();
    return calls?.some((c) => JSON.stringify(c.arguments).includes(marker));
  }

  /** Command mode: starts a second adapter instance with the same configuration and another key. */
  async twin(): Promise<{ key: string; stop: () => Promise<void> } | undefined> {
    if (!this.#argv) return undefined;
    const identity = generateIdentity(BACKENDS);
    await writeKeyFile(join(this.#dir, 'twin.key'), identity);
    const config = this.#writeConfig('twin', await freePort());
    const child = await startAdapter(this.#argv, config, this.#dir);
    this.#extra.push(child);
    const resolved = await this.xp.resolve(identity.keys.ed25519, 30_000);
    if (!resolved) throw new Error(`the second instance published no announce within 30 s`);
    return { key: identity.keys.ed25519, stop: child.stop };
  }

  /** Command mode: stops the adapter and starts it again on the same configuration and state. */
  async restart(): Promise<boolean> {
    if (!this.#argv || !this.#config || !this.#process) return false;
    await this.#mcp?.close().catch(() => undefined);
    this.#mcp = undefined;
    await this.#process.stop();
    const since = Math.floor(Date.now() / 1000);
    this.#process = await startAdapter(this.#argv, this.#config, this.#dir);
    await this.xp.announce(this.adapter.ed25519, 30_000, since);
    return true;
  }

  /** The adapter's stderr so far (command mode). */
  logs(): string[] {
    return this.#process?.logs ?? [];
  }

  /** A connected MCP client on the adapter's MCP face, once the peer's tools are listed (or 20 s passed). */
  async mcp(): Promise<Client | undefined> {
    if (this.#mcp) return this.#mcp;
    if (!this.mcpUrl) return undefined;
    const client = new Client({ name: 'xprotocol-conformance', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(this.mcpUrl)));
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const { tools } = await client.listTools();
      if (tools.some((t) => t.name.startsWith('peer_'))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    this.#mcp = client;
    return client;
  }

  /** Stops everything the suite started and removes its temporary folder. */
  async close(): Promise<void> {
    await this.#mcp?.close().catch(() => undefined);
    for (const child of this.#extra) await child.stop();
    await this.#process?.stop();
    await this.xp.close();
    await this.peer.close();
    await this.injector?.close();
    await this.#relay?.close();
    rmSync(this.#dir, { recursive: true, force: true });
    this.#log('stopped');
  }
}

/** `ed25519:…` as it is, or the key of `xp://host[:port]`'s well-known document. */
async function _endpointKey(endpoint: string): Promise<string> {
  if (endpoint.startsWith('ed25519:')) return endpoint;
  const match = /^xp:\/\/([^/]+)$/.exec(endpoint);
  if (!match)
    throw new Error(
      `--endpoint: expected ed25519:<64 hex> or xp://host[:port], got ${JSON.stringify(endpoint)}`,
    );
  const host = match[1]!;
  const scheme = /^(127\.|localhost|\[::1\])/.test(host) ? 'http' : 'https';
  const url = `${scheme}://${host}${WELL_KNOWN_PATH}`;
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200)
    throw new Error(`--endpoint ${endpoint}: ${url} answered HTTP ${response.status}`);
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_WELL_KNOWN_BYTES)
    throw new Error(`--endpoint ${endpoint}: ${url} is over ${MAX_WELL_KNOWN_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--endpoint ${endpoint}: ${url} is not JSON`);
  }
  const parsed = parseWellKnownDocument(value);
  if (!parsed.ok) throw new Error(`--endpoint ${endpoint}: ${url}: ${parsed.problems.join('; ')}`);
  return parsed.document.public_key;
}
