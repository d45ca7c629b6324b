// Real HTTP MCP servers for tests: the official `server-everything` in its Streamable HTTP and
// legacy SSE modes as child processes on loopback, a header-recording proxy in front of them,
// and a recording logger. Every child is killed by its PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BridgeLogger } from '../../src/index.js';

export const EVERYTHING_SERVER = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

export const FIXTURE_SERVER = join(import.meta.dirname, 'upstream-fixture-server.mjs');

// server-everything binds `PORT` on every interface and never says which port it got. This
// preload binds a port-only listen() to 127.0.0.1 and reports the bound port on stderr, so the
// server stays on loopback and can start on port 0.
const LOOPBACK_PRELOAD = `
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if ((typeof port === 'number' || (typeof port === 'string' && /^\\d+$/.test(port))) && typeof args[1] !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  }
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stderr.write('XP_TEST_LISTENING ' + address.port + '\\n');
  });
  return listen.apply(this, args);
};
`;

/** A running server-everything. */
export interface EverythingServer {
  child: ChildProcess;
  port: number;
  /** The MCP URL: `/mcp` (Streamable HTTP) or `/sse` (legacy SSE). */
  url: string;
  /** Kills the child (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
}

/** Starts server-everything in `mode` on `port` (0: any free port), bound to 127.0.0.1. */
export async function startEverything(mode: 'streamableHttp' | 'sse', port = 0): Promise<EverythingServer> {
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(LOOPBACK_PRELOAD)}`, EVERYTHING_SERVER, mode],
    { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGKILL');
    }
    await exited;
  };
  const bound = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not listen in 10 s: ${output}`)),
      10_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /XP_TEST_LISTENING (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code} before listening: ${output}`));
    });
  }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  return {
    child,
    port: bound,
    url: `http://127.0.0.1:${bound}${mode === 'sse' ? '/sse' : '/mcp'}`,
    kill,
  };
}

/** One request seen by the recording proxy. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A loopback HTTP proxy that records every request's headers and forwards it, streaming. */
export interface RecordingProxy {
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a recording proxy in front of `127.0.0.1:targetPort`. With `requireToken`, a request
 * without `Authorization: Bearer <requireToken>` is answered 401 and not forwarded.
 */
export async function startRecordingProxy(
  targetPort: number,
  options: { requireToken?: string } = {},
): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    requests.push({
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      headers: { ...incoming.headers },
    });
    if (
      options.requireToken !== undefined &&
      incoming.headers.authorization !== `Bearer ${options.requireToken}`
    ) {
      incoming.resume();
      outgoing
        .writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' })
        .end('unauthorized\n');
      return;
    }
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${targetPort}` },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A logger that keeps every entry, to check what was (and was not) logged. */
export function recordingLogger(): BridgeLogger & {
  entries: { level: string; fields: Record<string, unknown>; message: string }[];
} {
  const entries: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      entries.push({ level, fields, message });
    };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
