#!/usr/bin/env node
/**
 * The client under test of the official conformance runner's `auth` suite
 * (`conformance client --command "node scripts/conformance-auth-client.mjs" --suite auth`;
 * docs/conformance.md, "OAuth client: the auth suite"). The runner starts it with the scenario's
 * MCP server URL as its one argument, the scenario's name in `MCP_CONFORMANCE_SCENARIO` and its
 * client credentials, when it has any, in `MCP_CONFORMANCE_CONTEXT`. It plays the operator and the
 * user around the real adapter, nothing more: it writes an adapter config with that URL as an
 * `auth.type: oauth` source, runs `xprotocol-adapter login` for the authorization code flow and
 * acts as the browser (fetches the printed URL and follows the authorization server's redirect to
 * the adapter's loopback listener), then starts the adapter with a stdio face, lists the tools
 * through it and calls each one, answering a URL-mode elicitation (a new authorization the
 * adapter needs in the middle of a call) the same way. Every OAuth step is the adapter's own. Exits 0 when every call
 * succeeded, 1 otherwise, with what went wrong on stderr.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const here = dirname(fileURLToPath(import.meta.url));
const ADAPTER_BIN = join(here, '..', 'dist', 'bin.js');
const RELAY_BIN = join(here, '..', 'node_modules', '@xprotocol', 'relay', 'dist', 'bin.js');
/** The adapter and the relay run on the Node that runs this script (the runner's own may be newer). */
const NODE = process.env.CONFORMANCE_ADAPTER_NODE || process.execPath;
/** A bound on every step: the runner's own timeout ends the scenario anyway. */
const STEP_MS = 120_000;
const SECRET_ENV = 'CONFORMANCE_CLIENT_SECRET';
/** The Client ID Metadata Document URL the `basic-cimd` scenario expects as the client id. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const dir = mkdtempSync(join(tmpdir(), 'xp-conformance-auth-'));
/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
const log = (line) => process.stderr.write(`[conformance-auth-client] ${line}\n`);

/** The `auth` mapping of the source for this scenario's credentials. */
function authFor() {
  const lines = ['type: oauth', 'allow_insecure_loopback: true'];
  const machine = scenario.includes('client-credentials');
  lines.push(`grant: ${machine ? 'client_credentials' : 'authorization_code'}`);
  if (typeof context.client_id === 'string') lines.push(`client_id: ${JSON.stringify(context.client_id)}`);
  if (typeof context.client_secret === 'string') lines.push(`client_secret_env: ${SECRET_ENV}`);
  // The operator of a CIMD scenario hosts the document at the URL the scenario names.
  if (scenario.includes('cimd')) lines.push(`client_metadata_url: ${JSON.stringify(CIMD_URL)}`);
  return lines.map((line) => `      ${line}`).join('\n');
}

/** The source's `mcp_revision` when the scenario's server speaks 2026-07-28 (it then refuses 2025). */
function revision() {
  return process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === '2026-07-28' ? '\n    mcp_revision: auto' : '';
}

/** Writes the adapter's config: one OAuth source, a stdio face that serves it, a local relay. */
function writeConfig(relayUrl) {
  const path = join(dir, 'adapter.yml');
  writeFileSync(
    path,
    `identity:
  key_file: ./adapter.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
    transport: streamable_http
    url: ${JSON.stringify(serverUrl)}
    auth:
${authFor()}
    xprotocol_namespace: test.conformance${revision()}
    # The scenarios' tools have terse descriptions; they are published all the same.
    description_quality_threshold: 0
    description_quality_floor: 0
access:
  grants: []
mcp_server:
  transport: stdio
  expose: [mcp_sources]
network:
  allow_private: [127.0.0.0/8, ::1/128]
state_database: ./state.db
logging:
  level: warn
  format: text
`,
  );
  return path;
}

/** The child's environment: the client secret, by the name the config gives it. */
function childEnv() {
  return typeof context.client_secret === 'string'
    ? { ...process.env, [SECRET_ENV]: context.client_secret }
    : { ...process.env };
}

/** Starts a Node script as a child of this one, its stderr passed through. */
function start(script, args) {
  const child = spawn(NODE, [script, ...args], {
    cwd: dir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  return child;
}

/** Resolves with the first stdout line of `child` for which `wanted` is true. */
function lineOf(child, wanted, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: nothing after ${STEP_MS} ms`)), STEP_MS);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!wanted(line)) return;
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what}: exited ${code}`));
    });
  });
}

function exitOf(child) {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * The browser: opens the authorization URL and follows the authorization server's redirects
 * (the server approves without a person) until one points at the adapter's loopback listener,
 * which is then called like a browser would.
 */
async function browse(authorizationUrl) {
  let url = authorizationUrl;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(STEP_MS) });
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status >= 400 || !location) {
      log(
        `the authorization URL answered HTTP ${answer.status} without a redirect: ${(await answer.text()).slice(0, 300)}`,
      );
      return;
    }
    url = new URL(location, url).href;
    if (new URL(url).hostname === '127.0.0.1' && new URL(url).pathname === '/callback') {
      const back = await fetch(url, { signal: AbortSignal.timeout(STEP_MS) });
      log(`the adapter's redirect listener answered HTTP ${back.status}`);
      return;
    }
  }
  log('more than 5 redirects without reaching the adapter');
}

/** `xprotocol-adapter login conformance`: the URL it prints is browsed; its exit code returned. */
async function login(config) {
  const child = start(ADAPTER_BIN, ['login', 'conformance', '--config', config]);
  const exited = exitOf(child);
  const url = await lineOf(child, (line) => /^https?:\/\//.test(line), 'login').catch((error) => {
    log(String(error));
    return undefined;
  });
  if (url === undefined) {
    child.kill('SIGKILL');
    return exitOf(child);
  }
  await browse(url);
  return exited;
}

/**
 * The adapter's stdio face: list the tools, call each one; true when every call succeeded. The
 * client declares URL-mode elicitation: when an upstream needs a new authorization during a call
 * (a wider scope, a new authorization server), the adapter sends it the URL, and this client
 * accepts and acts as the browser, as a person would.
 */
async function callThroughFace(config) {
  const client = new Client(
    { name: 'conformance-auth-client', version: '0.0.0' },
    { capabilities: { elicitation: { url: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    if (request.params.mode !== 'url') return { action: 'decline' };
    log(`URL elicitation: ${request.params.message}`);
    browse(request.params.url).catch((error) => log(`browsing the elicited URL failed: ${error}`));
    return { action: 'accept' };
  });
  const transport = new StdioClientTransport({
    command: NODE,
    args: [ADAPTER_BIN, 'start', '--config', config],
    cwd: dir,
    env: childEnv(),
    stderr: 'inherit',
  });
  await client.connect(transport);
  try {
    // The face's own `search_tools` is not the scenario's; the source's tools are.
    const tools = (await client.listTools()).tools.filter((tool) => tool.name !== 'search_tools');
    log(`tools through the face: ${tools.map((tool) => tool.name).join(', ') || 'none'}`);
    let ok = tools.length > 0;
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: {} });
      log(`${tool.name}: ${JSON.stringify(result).slice(0, 400)}`);
      if (result.isError) ok = false;
    }
    return ok;
  } finally {
    await client.close();
  }
}

async function main() {
  if (!serverUrl) throw new Error('usage: conformance-auth-client.mjs <MCP server URL>');
  const keygen = start(ADAPTER_BIN, ['keygen', '--output', join(dir, 'adapter.key')]);
  keygen.stdout.resume();
  if ((await exitOf(keygen)) !== 0) throw new Error('keygen failed');
  const relay = start(RELAY_BIN, ['--port', '0']);
  const relayUrl = await lineOf(relay, () => true, 'relay');
  const config = writeConfig(relayUrl);
  if (!scenario.includes('client-credentials')) {
    const code = await login(config);
    if (code !== 0) {
      log(`login exited ${code}`);
      return false;
    }
  }
  return callThroughFace(config);
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
