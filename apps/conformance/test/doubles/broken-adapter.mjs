#!/usr/bin/env node
// A deliberately broken adapter, for the suite's own tests: the real adapter behind a relay proxy
// that holds the adapter's key and breaks exactly one rule, so that exactly one check must fail.
//
//   node broken-adapter.mjs MODE CMD ARGS… start --config FILE
//
// MODE is one of:
//   allow-all         capability checks skipped (the configuration's access becomes default: allow)
//   no-mcp-sources    the announce loses its mcp_sources (re-signed with the adapter's key)
//   nondeterministic  every catalog page gets a random description suffix (re-signed)
//   bad-grammar       every contract's gbnf_grammar becomes unparseable (re-signed)
//   wrong-errors      xp.error NOT_FOUND and RATE_LIMITED become UPSTREAM_ERROR (re-sealed, re-signed)
//   skip-signatures   an incoming event that fails verification is processed anyway: the proxy
//                     decrypts it with the adapter's key, re-sends it to the adapter from a key of
//                     its own (granted everything), and returns the answer to the forged sender
//   foreign-chain     the announce's delegation_chain becomes a valid chain for another key (re-signed)
//   accept-any-chain  a request with a delegation tag is served whatever its chain: the proxy
//                     re-sends it from its own key (granted everything), as skip-signatures does
//   ignore-revocations  xp.key.revoke events never reach the adapter (the proxy drops them)
//   no-prompts        catalog pages lose their prompt and resource-template contracts (re-signed)
//   wrong-prompt      the answer to a prompt contract gets another text (re-sealed, re-signed)
//   no-delegation     an adapter without delegated identity: it refuses a configuration with
//                     identity.parent_delegation_event or access.trusted_issuers, and otherwise
//                     runs as it is (no proxy)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  conversationKey,
  decryptPayload,
  encryptPayload,
  generateIdentity,
  getTag,
  hexToBytes,
  identityFromSecretKeys,
  openEvent,
  parseKey,
  sealEvent,
  signDelegation,
  signEvent,
  verifyEvent,
} from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { WebSocket, WebSocketServer } from 'ws';
import { parse, stringify } from 'yaml';

const MODES = [
  'allow-all',
  'no-mcp-sources',
  'nondeterministic',
  'bad-grammar',
  'wrong-errors',
  'skip-signatures',
  'foreign-chain',
  'accept-any-chain',
  'ignore-revocations',
  'no-delegation',
  'no-prompts',
  'wrong-prompt',
];
const [mode, ...command] = process.argv.slice(2);
if (!MODES.includes(mode)) {
  process.stderr.write(`broken-adapter: expected a mode (${MODES.join(', ')}), got ${mode}\n`);
  process.exit(2);
}
const configAt = command.indexOf('--config') + 1;
const configPath = command[configAt];
const config = parse(readFileSync(configPath, 'utf8'));

/** ed25519 key string → x25519 key string, learned from the events the adapter receives. */
const x25519Of = new Map();
let identity;
const BACKENDS = { signatures: nodeSignatures, cipher: nodeCipher };
/** skip-signatures: the proxy's own identity, and laundered request id → the forged original. */
const launderer = generateIdentity(BACKENDS);
const laundered = new Map();

/** Whether this mode launders `event`: a forged one (skip-signatures) or one with a chain (accept-any-chain). */
function shouldLaunder(event) {
  if (mode === 'skip-signatures') return !verifyEvent(event, nodeSignatures).ok;
  return mode === 'accept-any-chain' && getTag(event, 'delegation') !== undefined;
}

/** skip-signatures, accept-any-chain: a request addressed to the adapter, re-sent validly from the launderer. */
function launder(event) {
  if (event.pubkey === identity.keys.ed25519 || getTag(event, 'p') !== identity.keys.ed25519) return event;
  if (!shouldLaunder(event)) return event;
  const senderX = getTag(event, 'x25519');
  const key = conversationKey(
    identity.x25519.secretKey,
    parseKey(senderX, 'x25519').bytes,
    identity.ed25519.publicKey,
    parseKey(event.pubkey, 'ed25519').bytes,
    nodeCipher,
  );
  const plaintext = decryptPayload(event.content, key, { backend: nodeCipher });
  const now = Math.floor(Date.now() / 1000);
  const copy = sealEvent(
    { kind: event.kind, plaintext, created_at: now, expiration: now + 60 },
    launderer,
    identity.keys,
    BACKENDS,
  );
  laundered.set(copy.id, { original: event, senderX });
  return copy;
}

/** skip-signatures: the adapter's answer to a laundered request, re-sealed to the forged sender. */
function unlaunder(event) {
  const entry = laundered.get(getTag(event, 'e'));
  if (!entry || getTag(event, 'p') !== launderer.keys.ed25519) return event;
  const { plaintext } = openEvent(event, launderer, BACKENDS);
  return sealEvent(
    {
      kind: event.kind,
      plaintext,
      replyTo: entry.original.id,
      created_at: event.created_at,
      expiration: event.created_at + 60,
    },
    identity,
    { ed25519: entry.original.pubkey, x25519: entry.senderX },
    BACKENDS,
  );
}

function resign(event, content) {
  return signEvent(
    { created_at: event.created_at, kind: event.kind, tags: event.tags, content },
    identity.ed25519.secretKey,
    nodeSignatures,
  );
}

function breakCatalog(event, edit) {
  const page = JSON.parse(event.content);
  page.contracts = page.contracts.map(edit);
  return resign(event, JSON.stringify(page));
}

/** An answer the adapter sealed to a peer, its payload changed by `edit` (which returns it or undefined to keep the event). */
function breakSealed(event, edit) {
  const peer = getTag(event, 'p');
  const peerX = x25519Of.get(peer);
  if (!peerX) return event;
  const key = conversationKey(
    identity.x25519.secretKey,
    parseKey(peerX, 'x25519').bytes,
    identity.ed25519.publicKey,
    parseKey(peer, 'ed25519').bytes,
    nodeCipher,
  );
  const changed = edit(JSON.parse(decryptPayload(event.content, key, { backend: nodeCipher })));
  if (changed === undefined) return event;
  return resign(event, encryptPayload(JSON.stringify(changed), key, { backend: nodeCipher }));
}

function breakError(event) {
  return breakSealed(event, (payload) =>
    payload.code === 'NOT_FOUND' || payload.code === 'RATE_LIMITED'
      ? { ...payload, code: 'UPSTREAM_ERROR' }
      : undefined,
  );
}

/** foreign-chain: a chain that holds on its own but vouches for a key that is not the adapter's. */
function foreignChain() {
  const root = generateIdentity(BACKENDS);
  const now = Math.floor(Date.now() / 1000);
  const link = signDelegation(
    {
      delegated_key: generateIdentity(BACKENDS).keys.ed25519,
      capabilities: ['*'],
      not_before: now - 60,
      expires_at: now + 86_400,
    },
    root.ed25519.secretKey,
    nodeSignatures,
  );
  return [link];
}

/** The one thing this mode breaks, on an event the adapter publishes. */
function mutate(event) {
  if (event.pubkey !== identity.keys.ed25519) return event;
  if (mode === 'foreign-chain' && event.kind === 'xp.endpoint.announce') {
    const payload = JSON.parse(event.content);
    if (payload.delegation_chain === undefined) return event;
    return resign(event, JSON.stringify({ ...payload, delegation_chain: foreignChain() }));
  }
  if (mode === 'no-mcp-sources' && event.kind === 'xp.endpoint.announce') {
    const { mcp_sources: _dropped, ...rest } = JSON.parse(event.content);
    return resign(event, JSON.stringify(rest));
  }
  if (mode === 'nondeterministic' && event.kind === 'xp.schema.catalog.result') {
    const salt = Math.random().toString(36).slice(2);
    return breakCatalog(event, (c) => ({ ...c, description: `${c.description} (${salt})` }));
  }
  if (mode === 'bad-grammar' && event.kind === 'xp.schema.catalog.result') {
    return breakCatalog(event, (c) => ({ ...c, gbnf_grammar: 'root ::= ( "{" ' }));
  }
  if (mode === 'wrong-errors' && event.kind === 'xp.error') return breakError(event);
  if (mode === 'no-prompts' && event.kind === 'xp.schema.catalog.result') {
    const page = JSON.parse(event.content);
    page.contracts = page.contracts.filter((c) => !/\.(prompt|resource)\./.test(c.kind));
    return resign(event, JSON.stringify(page));
  }
  if (mode === 'wrong-prompt' && /\.prompt\.[^.]+\.result$/.test(event.kind)) {
    return breakSealed(event, (payload) => ({
      ...payload,
      messages: [{ role: 'user', content: { type: 'text', text: 'Something else entirely.' } }],
    }));
  }
  if (mode === 'skip-signatures' || mode === 'accept-any-chain') return unlaunder(event);
  return event;
}

/** A proxy in front of `url`: adapter ↔ proxy ↔ relay, with {@link mutate} on what the adapter publishes. */
function proxy(url) {
  return new Promise((resolve) => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (adapter) => {
      const relay = new WebSocket(url);
      const waiting = [];
      relay.on('open', () => {
        for (const frame of waiting.splice(0)) relay.send(frame);
      });
      relay.on('message', (data) => {
        let text = String(data);
        try {
          const message = JSON.parse(text);
          const event = message[0] === 'EVENT' ? message[2] : undefined;
          const x = event && getTag(event, 'x25519');
          if (x) x25519Of.set(event.pubkey, x);
          if (event && mode === 'ignore-revocations' && event.kind === 'xp.key.revoke') return;
          if (event && (mode === 'skip-signatures' || mode === 'accept-any-chain'))
            text = JSON.stringify(['EVENT', message[1], launder(event)]);
        } catch (error) {
          process.stderr.write(`broken-adapter: ${error.message}\n`);
        }
        if (adapter.readyState === WebSocket.OPEN) adapter.send(text);
      });
      relay.on('close', () => adapter.close());
      relay.on('error', () => adapter.close());
      adapter.on('message', (data) => {
        let text = String(data);
        try {
          const message = JSON.parse(text);
          if (message[0] === 'EVENT') text = JSON.stringify(['EVENT', mutate(message[1])]);
        } catch {}
        if (relay.readyState === WebSocket.OPEN) relay.send(text);
        else waiting.push(text);
      });
      adapter.on('close', () => relay.close());
    });
    server.once('listening', () => resolve(`ws://127.0.0.1:${server.address().port}`));
  });
}

if (mode === 'no-delegation') {
  if (
    config.identity?.parent_delegation_event !== undefined ||
    config.access?.trusted_issuers !== undefined
  ) {
    process.stderr.write(
      'broken-adapter: unknown configuration keys (this adapter has no delegated identity)\n',
    );
    process.exit(1);
  }
} else if (mode === 'allow-all') {
  config.access = { default: 'allow' };
} else {
  const key = JSON.parse(readFileSync(config.identity.key_file, 'utf8'));
  identity = identityFromSecretKeys(
    { ed25519: hexToBytes(key.ed25519.secret), x25519: hexToBytes(key.x25519.secret) },
    { signatures: nodeSignatures, cipher: nodeCipher },
  );
  if (mode === 'skip-signatures' || mode === 'accept-any-chain') {
    config.access.grants = [
      ...(config.access.grants ?? []),
      { key: launderer.keys.ed25519, capabilities: ['*'] },
    ];
  }
  const proxied = new Map();
  for (const url of config.relay.urls) proxied.set(url, await proxy(url));
  config.relay.urls = config.relay.urls.map((u) => proxied.get(u));
  for (const source of config.xprotocol_sources ?? []) {
    if (typeof source.relay === 'string' && proxied.has(source.relay))
      source.relay = proxied.get(source.relay);
  }
}
const brokenConfig = `${configPath}.${mode}.yml`;
writeFileSync(brokenConfig, stringify(config));
command[configAt] = brokenConfig;
const [executable, ...args] = command;
const child = spawn(executable, args, { stdio: ['ignore', 'inherit', 'inherit'] });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
