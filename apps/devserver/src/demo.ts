/**
 * `--demo`: the README's main job, on a fresh machine, in a few seconds. In a new temporary
 * directory it starts the local relay, an adapter wrapping the real
 * `@modelcontextprotocol/server-filesystem` over that directory, and a demo client identity
 * granted `com.demo.fs.read` (everything else is denied); then makes one real call through the
 * relay — resolve the adapter's announce, seal, sign, publish, await the sealed answer — prints the
 * answer's payload, stops everything and removes the directory. Nothing is written outside it.
 * @module
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentity } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { callEndpoint } from '@xprotocol/mcp-adapter';
import { _quoteCommandLine } from './_command-quote.js';
import { inlineConfig } from './inline-config.js';
import { type DevServer, startDevServer } from './start-dev-server.js';
import { createStyle, type Style } from './style.js';

/** The namespace the demo wraps server-filesystem under. */
export const DEMO_NAMESPACE = 'com.demo.fs';
/** The one kind the demo calls. */
export const DEMO_KIND = `${DEMO_NAMESPACE}.read_text_file`;
/** The text of the file the demo reads back. */
export const DEMO_TEXT =
  'Hello from XProtocol! Read by server-filesystem, sealed to you, through a local relay.\n';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Narration and event log lines (one call per line, no newline). Default: stderr. */
  write?: (line: string) => void;
  style?: Style;
  /** Where the temporary directory is made. Default `os.tmpdir()`. */
  tmpRoot?: string;
  /** The relay's port on 127.0.0.1. Default 0 (any free port, so a running devserver is not disturbed). */
  relayPort?: number;
  /** Aborting stops the demo at its current step; it still cleans up, then rejects. */
  signal?: AbortSignal;
  /** Bound of each network step (resolve, call), in ms; the call as a whole gets twice this. Default 15000. */
  stepTimeoutMs?: number;
}

/** What the demo call returned. */
export interface DemoResult {
  /** The answer's payload: server-filesystem's `CallToolResult`. */
  payload: unknown;
  /** The answer event's id. */
  answerId: string;
  /** From publishing the call to opening the answer, in ms. */
  roundTripMs: number;
  relayUrl: string;
  adapterKey: string;
  clientKey: string;
}

/** A demo step that failed; `step` names it. */
export class DemoError extends Error {
  readonly code = 'DEMO_FAILED';
  readonly step: string;

  constructor(step: string, message: string, options?: { cause?: unknown }) {
    super(`demo step "${step}" failed: ${message}`, options);
    this.name = 'DemoError';
    this.step = step;
  }
}

/** The server-filesystem entry point, run with this Node (no npx, no network). */
export function filesystemServerEntry(): string {
  return createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
}

/**
 * Runs the demo; resolves with the answer, or rejects with a {@link DemoError}. Always stops what
 * it started and removes its temporary directory.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const style = options.style ?? createStyle();
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const stepMs = options.stepTimeoutMs ?? 15_000;
  const say = (label: string, text: string) => write(`${style.bold(label.padEnd(8))} ${text}`);
  const dir = realpathSync(mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'xprotocol-demo-')));
  let dev: DevServer | undefined;
  let step = 'setup';
  try {
    const file = join(dir, 'hello.txt');
    writeFileSync(file, DEMO_TEXT);
    const backends = { signatures: nodeSignatures, cipher: nodeCipher };
    const client = generateIdentity(backends);
    say('demo', `temporary directory ${dir}`);

    step = 'start the relay and the adapter';
    const { config } = inlineConfig({
      command: _quoteCommandLine([process.execPath, filesystemServerEntry(), dir]),
      namespace: DEMO_NAMESPACE,
      sourceName: 'fs',
      keyFile: join(dir, 'adapter.key'),
      displayName: 'XProtocol DevServer demo',
      access: {
        default: 'deny',
        grants: [{ key: client.keys.ed25519, capabilities: [`${DEMO_NAMESPACE}.read`] }],
      },
      stateDatabase: join(dir, 'adapter-state.db'),
      logging: { level: 'warn', format: 'text' },
      origin: '--demo',
    });
    dev = await startDevServer({
      config,
      database: join(dir, 'events.db'),
      relayPort: options.relayPort ?? 0,
      eventLog: write,
      style,
    });
    // Starting is bounded and owns processes: let it finish, then honour an interrupt.
    if (options.signal?.aborted) throw new Error(`interrupted (${String(options.signal.reason)})`);
    const source = dev.adapter.sources.status()[0];
    if (!source?.connected) {
      throw new Error(`server-filesystem did not start: ${source?.error ?? 'no source'}`);
    }
    say('relay', `${dev.relayUrl} (SQLite event store in the temporary directory)`);
    say(
      'adapter',
      `${dev.adapter.keys.ed25519} wraps server-filesystem as ${DEMO_NAMESPACE} (${source.toolCount} tools)`,
    );
    say('client', `${client.keys.ed25519} granted ${DEMO_NAMESPACE}.read; every other call is denied`);

    step = 'resolve the adapter announce';
    // The same one-shot call `xprotocol-adapter call` makes: resolve the announce, seal, sign,
    // publish, await the sealed answer.
    const payload = { path: file };
    const outcome = await callEndpoint({
      identity: client,
      relays: [dev.relayUrl],
      to: dev.adapter.keys.ed25519,
      kind: DEMO_KIND,
      payload,
      timeoutMs: 2 * stepMs,
      ...(options.signal && { signal: options.signal }),
      onResolved: (announce) => {
        say(
          'resolve',
          `xp.endpoint.announce ${announce.event.id.slice(0, 12)}… gives x25519 key ${announce.keys.x25519}`,
        );
        step = `call ${DEMO_KIND}`;
        say('call', `${DEMO_KIND} ${JSON.stringify(payload)}: sealed to the adapter, signed, published`);
      },
    });
    if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
    const { answer, roundTripMs } = outcome;
    if ((outcome.payload as { isError?: unknown } | null)?.isError === true) {
      throw new Error(`the tool answered with an error: ${JSON.stringify(outcome.payload)}`);
    }
    say(
      'answer',
      `${answer.kind} ${answer.id.slice(0, 12)}… opened and verified, round trip ${roundTripMs.toFixed(0)} ms`,
    );
    return {
      payload: outcome.payload,
      answerId: answer.id,
      roundTripMs,
      relayUrl: dev.relayUrl,
      adapterKey: dev.adapter.keys.ed25519,
      clientKey: client.keys.ed25519,
    };
  } catch (error) {
    throw error instanceof DemoError
      ? error
      : new DemoError(step, (error as Error)?.message ?? String(error), { cause: error });
  } finally {
    step = 'stop';
    await dev?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    say('stopped', 'relay, adapter and server-filesystem; temporary directory removed');
  }
}
