// docs/protocol.md is enough for a second implementation: the client in test/independent/, written
// from the document alone (node:crypto and `ws`, nothing of this repository), reproduces the
// document's own vectors and those of testdata/vectors/, then talks to the real relay bin and a
// real adapter bin wrapping real MCP servers: announce, catalog, describe, sealed tool calls, an
// xp.error, and a request the document says to drop. Only processes are started with this
// repository's test helpers; every protocol step is the independent code's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, parseStrictJson } from './independent/canonical-json.mjs';
import {
  browseAnswer,
  catalogPage,
  kindMatches,
  readCatalogPage,
  readCatalogRequest,
  readDescribeAnswer,
  readDescribeQuery,
} from './independent/discovery.mjs';
import { ed25519FromSeed } from './independent/ed25519.mjs';
import { eventId, idPreimage, readEventText, signEvent, verifyEvent } from './independent/event.mjs';
import { runFrameCase } from './independent/frame-runner.mjs';
import { calcPaddedLen, decryptPayload, encryptPayload, messageKeys } from './independent/payload.mjs';
import { checkFilter, matchesAny, storedAnswer } from './independent/relay-filters.mjs';
import { openEvent, sealEvent } from './independent/sealed-event.mjs';
import { newIdentity, StrictClient } from './independent/strict-client.mjs';
import { checkToolArguments, entryKind, readToolResult } from './independent/tool-call.mjs';
import { randomTag, vectorEvent } from './independent/vector-events.mjs';
import { fetchWellKnown, readWellKnown, WellKnownRefused } from './independent/well-known.mjs';
import { conversationKey, conversationSalt, sharedSecret, x25519FromSecret } from './independent/x25519.mjs';
import { mcpFaceOf, readXpError } from './independent/xp-error.mjs';
import { startIndependentTarget } from './support/independent-target.js';
import { FS_SERVER, freePort, Processes } from './support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const vectorFile = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'testdata', 'vectors', name), 'utf8'));
const PROTOCOL = readFileSync(join(ROOT, 'docs', 'protocol.md'), 'utf8');
/** The JSON block after `<!-- vector: name -->` in docs/protocol.md (§8). */
const docVector = (name: string) => {
  const after = PROTOCOL.split(`<!-- vector: ${name} -->\n\`\`\`json\n`)[1];
  if (!after) throw new Error(`docs/protocol.md has no vector ${name}`);
  return JSON.parse(after.split('\n```')[0]!);
};
const hex = (s: string) => Buffer.from(s, 'hex');
// biome-ignore lint/suspicious/noExplicitAny: vector files are untyped JSON
type Any = any;

describe('docs/protocol.md §8.1: signature vectors, by the independent client', () => {
  const keys = docVector('keys');
  const signer = (name: string) => ed25519FromSeed(hex(keys[name].secret));

  it('derives the key strings from the seeds (§1)', () => {
    expect(signer('alice').publicKey).toBe(keys.alice.public);
    expect(signer('bob').publicKey).toBe(keys.bob.public);
  });

  it.each((docVector('canonical-json') as Any[]).map((v: Any, i: number) => [i, v] as const))(
    'canonical-json %i',
    (_i, v: Any) => {
      if (v.refused) expect(() => canonicalJson(parseStrictJson(v.input))).toThrow(/§2\.1/);
      else expect(canonicalJson(parseStrictJson(v.input))).toBe(v.output);
    },
  );

  it.each(['event-request', 'event-response', 'event-minimal'])(
    '%s: preimage, id, signature, wire form',
    (name) => {
      const v = docVector(name);
      const { pubkey: _p, id: _i, sig: _s, ...fields } = v.event;
      expect(idPreimage(v.event)).toBe(v.preimage);
      expect(eventId(v.event)).toBe(v.id);
      expect(signEvent(signer(v.signer), fields)).toEqual(v.event);
      expect(verifyEvent(v.event)).toEqual(v.event);
    },
  );

  it.each((docVector('rejections') as Any[]).map((v: Any) => [v.name, v] as const))(
    'refuses %s',
    (_name, v: Any) => {
      const event = { ...docVector(v.base).event, ...v.set };
      let refusal: Any;
      try {
        verifyEvent(event);
      } catch (err) {
        refusal = err;
      }
      expect(refusal?.code).toBe(v.code);
      if (v.code === 'signature') expect(refusal.precheck).toBe(v.precheck);
    },
  );
});

describe('testdata/vectors/xp-event-shape.json: each text read as a receiver does (§2.2, §4 steps 1–3)', () => {
  const file = vectorFile('xp-event-shape.json');
  it.each((file.cases as Any[]).map((v: Any) => [v.name, v] as const))('%s', (_name, v: Any) => {
    let verdict: Any = { verdict: 'accepted' };
    try {
      readEventText(v.text);
    } catch (err) {
      verdict = { verdict: 'refused', code: (err as Any).code };
    }
    expect(verdict).toEqual(v.expect);
  });
});

describe('testdata/vectors/xp-prompts.json kind_naming: the kind of each MCP name (§10.1)', () => {
  const file = vectorFile('xp-prompts.json');
  it.each(
    (file.kind_naming as Any[]).map((v: Any, i: number) => [i, v.entry, v.name.slice(0, 20), v] as const),
  )('%i %s %j', (_i, _entry, _name, v: Any) => {
    if (v.refused) expect(() => entryKind(v.entry, v.namespace, v.name)).toThrow(/^§10\.1: /);
    else expect(`${entryKind(v.entry, v.namespace, v.name)}.result`).toBe(v.answer_kind);
  });
});

describe('docs/protocol.md §8.2: encryption vectors, by the independent client', () => {
  const keys = docVector('encryption-keys');
  const identity = (name: string) => ({
    ed25519: ed25519FromSeed(hex(keys[name].ed25519_secret)),
    x25519: x25519FromSecret(hex(keys[name].x25519_secret)),
  });
  const conv = docVector('conversation-key');

  it('derives the X25519 keys, the shared secret, the salt and the conversation key from both sides (§5)', () => {
    const [alice, bob] = [identity('alice'), identity('bob')];
    expect([alice.x25519.publicKey, bob.x25519.publicKey]).toEqual([keys.alice.x25519, keys.bob.x25519]);
    expect(sharedSecret(alice.x25519.privateKey, keys.bob.x25519).toString('hex')).toBe(
      conv.x25519_shared_secret,
    );
    expect(conversationSalt(keys.alice.ed25519, keys.bob.ed25519).toString('hex')).toBe(conv.salt);
    for (const [me, them] of [
      ['alice', 'bob'],
      ['bob', 'alice'],
    ] as const) {
      const key = conversationKey(
        identity(me).x25519.privateKey,
        keys[them].x25519,
        keys[me].ed25519,
        keys[them].ed25519,
      );
      expect(key.toString('hex')).toBe(conv.conversation_key);
    }
  });

  it.each(['payload-v2', 'payload-v3'])('%s: message keys, padding, payload bytes, and back (§6)', (name) => {
    const v = docVector(name);
    const plaintext = v.plaintext ?? v.pattern.repeat(v.repeat);
    const key = hex(v.conversation_key);
    const mk = messageKeys(key, hex(v.nonce), name === 'payload-v2' ? 2 : 3);
    expect([mk.chachaKey, mk.chachaNonce, mk.hmacKey].map((b) => b.toString('hex'))).toEqual([
      v.chacha_key,
      v.chacha_nonce,
      v.hmac_key,
    ]);
    expect(Buffer.byteLength(plaintext)).toBe(v.plaintext_bytes);
    expect(calcPaddedLen(v.plaintext_bytes)).toBe(v.padded_length);
    const payload = encryptPayload(key, plaintext, hex(v.nonce));
    if (v.payload) expect(payload).toBe(v.payload);
    else {
      expect([payload.length, payload.slice(0, 64), payload.slice(-64)]).toEqual([
        v.payload_length,
        v.payload_start,
        v.payload_end,
      ]);
    }
    expect(decryptPayload(key, payload).plaintext).toBe(plaintext);
  });

  it.each(['sealed-request', 'sealed-response'])(
    '%s: the exact sealed event, opened by its recipient (§6.3)',
    (name) => {
      const v = docVector(name);
      const [sender, recipient] = [identity(v.sender), identity(v.recipient)];
      const event = sealEvent(
        sender,
        { ed25519: recipient.ed25519.publicKey, x25519: recipient.x25519.publicKey },
        { ...v.input, nonce: hex(v.nonce) },
      );
      expect(event).toEqual(v.event);
      expect(openEvent(v.event, recipient).plaintext).toBe(v.plaintext);
    },
  );

  it('refuses a payload whose MAC does not verify, with the rule (§6.1 check 6)', () => {
    const v = docVector('payload-v2');
    const tampered = `${v.payload.slice(0, 60)}${v.payload[60] === 'A' ? 'B' : 'A'}${v.payload.slice(61)}`;
    expect(() => decryptPayload(hex(v.conversation_key), tampered)).toThrow('§6.1: invalid MAC');
  });
});

describe('testdata/vectors/xp-errors.json, by the independent reader and face (§10.2)', () => {
  const file = vectorFile('xp-errors.json');
  it.each((file.valid as Any[]).map((v: Any) => [v.id, v] as const))(
    'valid %s: read, and both MCP faces',
    (_id, v: Any) => {
      expect(readXpError(v.payload)).toEqual(v.payload);
      expect(mcpFaceOf(v.payload, true)).toEqual(v.mcp_tool_call);
      expect(mcpFaceOf(v.payload, false)).toEqual(v.mcp_request);
    },
  );
  it.each((file.invalid as Any[]).map((v: Any) => [v.id, v] as const))(
    'invalid %s: refused, naming the field',
    (_id, v: Any) => {
      expect(() => readXpError(v.payload)).toThrow(expect.objectContaining({ field: v.field }));
    },
  );
});

describe('testdata/vectors/xp-discovery.json, by the independent reader (§10.8)', () => {
  const file = vectorFile('xp-discovery.json');
  it.each((file.catalog_requests as Any[]).map((v: Any) => [v.id, v] as const))(
    'catalog %s: the exact page',
    (_id, v: Any) => {
      expect(catalogPage(file.catalog, v.request_content)).toBe(v.result_content);
      expect(readCatalogPage(v.result_content).total).toBeGreaterThanOrEqual(0);
    },
  );
  it.each((file.catalog_refused as Any[]).map((v: Any) => [v.id, v] as const))(
    'catalog refused %s',
    (_id, v: Any) => {
      expect(() => readCatalogRequest(v.request_content)).toThrow(`§10.8: ${v.code}`);
    },
  );
  it.each((file.describe_requests as Any[]).map((v: Any) => [v.id, v] as const))(
    'describe %s',
    (_id, v: Any) => {
      readDescribeAnswer(v.result);
      // Without intent, verbs or subjects the answer is defined; a ranking is the endpoint's own.
      const browse = browseAnswer(file.catalog, v.request);
      if (browse) expect(browse).toEqual(v.result);
      else expect(v.why).toContain('informative');
    },
  );
  it.each((file.describe_refused as Any[]).map((v: Any) => [v.id, v] as const))(
    'describe refused %s',
    (_id, v: Any) => {
      expect(() => readDescribeQuery(v.request)).toThrow(`§10.8: ${v.code}`);
    },
  );
});

describe('testdata/vectors/xp-well-known.json, by the independent reader (§10.10)', () => {
  const file = vectorFile('xp-well-known.json');
  it.each((file.valid as Any[]).map((v) => [v.id, v] as const))('keeps %s', (_id, v: Any) => {
    expect(readWellKnown(v.document)).toEqual(v.read);
  });
  it.each((file.invalid as Any[]).map((v) => [v.id, v] as const))('refuses %s', (_id, v: Any) => {
    let refused: unknown;
    try {
      readWellKnown(v.document);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(WellKnownRefused);
    expect((refused as WellKnownRefused).field).toBe(v.field);
  });
});

describe('testdata/vectors/xp-relay-filters.json offline: the independent matcher and order (§9.3)', () => {
  const file = vectorFile('xp-relay-filters.json');
  const now = 1_800_000_000;
  let values: Record<string, string> = { run: randomTag() };
  const events: Record<string, Any> = {};
  for (const [name, spec] of Object.entries(file.events as Record<string, Any>)) {
    const built = vectorEvent(name, spec, { keys: file.keys, now, retention: 3600, values });
    events[name] = built.event;
    values = { ...values, ...built.values };
  }
  it('accepts every filter of the file, and refuses the filters xp-relay-frames.json refuses, naming the filter', () => {
    for (const v of [...file.stored, ...file.live] as Any[]) {
      for (const [i, f] of fillFilters(v.filters, values, now).entries()) checkFilter(f, i);
    }
    const refused = (vectorFile('xp-relay-frames.json').cases as Any[]).filter((c) => c.group === 'filters');
    expect(refused).toHaveLength(7);
    for (const c of refused) {
      const [, , ...filters] = JSON.parse(c.steps[0].send);
      const expected = c.steps[0].expect[0].prefix.includes('filter 1')
        ? /invalid: filter 1: /
        : /invalid: filter 0: /;
      expect(() => {
        for (const [i, f] of filters.entries()) checkFilter(f, i);
      }).toThrow(expected);
    }
  });

  it.each((file.stored as Any[]).map((v: Any) => [v.name, v] as const))(
    '%s: matches and stored order',
    (_name, v: Any) => {
      const filters = fillFilters(v.filters, values, now);
      const all = Object.values(events);
      expect(Object.keys(events).filter((n) => matchesAny(filters, events[n]))).toEqual(v.match);
      expect(storedAnswer(filters, all).map((e: Any) => e.id)).toEqual(expandStored(v.stored, events));
    },
  );
});

/** A filter list with its placeholders filled (`"{now-N}"` as a whole value is the number). */
function fillFilters(filters: unknown, values: Record<string, string>, now: number): Record<string, Any>[] {
  return JSON.parse(JSON.stringify(filters), (_k, v) => {
    if (typeof v !== 'string') return v;
    const relative = /^\{now([+-]\d+)\}$/.exec(v);
    if (relative) return now + Number(relative[1]);
    return v.replace(/\{([A-Za-z0-9_]+(?:\.[a-z_]+)?)\}/g, (whole, name) => values[name] ?? whole);
  });
}

/** The ids a `stored` list names, `{tie, take}` in ascending id order. */
function expandStored(stored: Any[], events: Record<string, Any>): string[] {
  return stored.flatMap((item) => {
    if (typeof item === 'string') return [events[item].id];
    const ids = item.tie.map((n: string) => events[n].id).sort();
    return item.take === undefined ? ids : ids.slice(0, item.take);
  });
}

describe('against the real relay bin, over raw WebSockets', () => {
  const procs = new Processes();
  let relayUrl: string;
  let limitedUrl: string;
  beforeAll(async () => {
    ({ url: relayUrl } = await procs.relay());
    ({ url: limitedUrl } = await procs.relay(['--rate', '2', '--max-bytes-per-key', '2048']));
  }, 60_000);
  afterAll(() => procs.close());

  const frames = vectorFile('xp-relay-frames.json');
  const run = randomTag();
  it.each((frames.cases as Any[]).map((c: Any) => [c.group, c.name, c] as const))(
    'xp-relay-frames %s/%s',
    async (_group, _name, c: Any) => {
      const url = c.requires ? limitedUrl : relayUrl;
      expect(await runFrameCase(url, c, { keys: frames.keys, run, retention: 3600 })).toEqual([]);
    },
    60_000,
  );

  it('xp-relay-filters: every stored and live case, as the relay answers them', async () => {
    const file = vectorFile('xp-relay-filters.json');
    const client = await StrictClient.connect(relayUrl, newIdentity());
    try {
      const now = Math.floor(Date.now() / 1000);
      let values: Record<string, string> = { run: randomTag() };
      const events: Record<string, Any> = {};
      for (const [name, spec] of Object.entries(file.events as Record<string, Any>)) {
        const built = vectorEvent(name, spec, { keys: file.keys, now, retention: 3600, values });
        events[name] = built.event;
        values = { ...values, ...built.values };
        expect(await client.publish(built.event)).toMatchObject({ accepted: true, reason: '' });
      }
      for (const v of file.stored) {
        const stored = await client.subscribe(
          `st-${v.name}`.slice(0, 64),
          fillFilters(v.filters, values, now),
        );
        client.unsubscribe(`st-${v.name}`.slice(0, 64));
        expect([v.name, stored.map((e: Any) => e.id)]).toEqual([v.name, expandStored(v.stored, events)]);
      }
      for (const v of file.live) {
        let liveValues: Record<string, string> = { ...values, live: randomTag() };
        const liveNow = Math.floor(Date.now() / 1000);
        const sub = `lv-${v.name}`.slice(0, 64);
        expect(await client.subscribe(sub, fillFilters(v.filters, liveValues, liveNow))).toEqual([]);
        const live: Record<string, Any> = {};
        for (const [name, spec] of Object.entries(file.live_events as Record<string, Any>)) {
          const built = vectorEvent(name, spec, {
            keys: file.keys,
            now: liveNow,
            retention: 3600,
            values: liveValues,
          });
          live[name] = built.event;
          liveValues = { ...liveValues, ...built.values };
          expect(await client.publish(built.event)).toMatchObject({ accepted: true });
        }
        // A probe REQ on the same connection: its EOSE comes after every delivery before it (§9.1).
        const probe = `probe-${v.name}`.slice(0, 64);
        await client.subscribe(probe, [{ ids: [] }]);
        const delivered = client.pending
          .filter((m: Any) => m.type === 'EVENT' && m.subId === sub)
          .map((m: Any) => m.event.id);
        client.pending.length = 0;
        client.unsubscribe(sub);
        expect([v.name, delivered]).toEqual([v.name, v.delivered.map((n: string) => live[n].id)]);
      }
    } finally {
      client.close();
    }
  }, 120_000);
});

describe('against a real adapter bin wrapping real MCP servers, through the real relay', () => {
  const procs = new Processes();
  const me = newIdentity();
  const TOOL_RESULTS = join(ROOT, 'packages', 'mcp-bridge', 'test', 'fixtures', 'tool-results-server.mjs');
  let client: StrictClient;
  let endpoint: { ed25519: string; x25519: string };
  let catalog: Any[];
  let relayUrl: string;
  let wellKnownPort: number;

  beforeAll(async () => {
    wellKnownPort = await freePort();
    procs.file('hello.txt', 'hello from an independent client\n');
    const target = await startIndependentTarget(
      procs,
      me,
      `mcp_sources:
  - name: files
    transport: stdio
    command: "'${process.execPath}' '${FS_SERVER}' '${procs.dir}'"
    xprotocol_namespace: com.test.files
  - name: results
    transport: stdio
    command: "'${process.execPath}' '${TOOL_RESULTS}'"
    xprotocol_namespace: com.test.fs
access:
  default: deny
  grants:
    - key: ${me.ed25519.publicKey}
      capabilities: [com.test.files.read, com.test.fs.*]
discovery:
  well_known_port: ${wellKnownPort}
`,
      { displayName: 'Independent client target' },
    );
    ({ client, endpoint, relayUrl } = target);
    expect(target.announce.mcp_sources.map((s: Any) => s.namespace)).toEqual([
      'com.test.files',
      'com.test.fs',
    ]);
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await procs.close();
  });

  it('reads the well-known document (§10.10): the keys of the signed announce, the relay it listens on', async () => {
    const document = await fetchWellKnown(`http://127.0.0.1:${wellKnownPort}`);
    expect(document).toMatchObject({
      version: 'xp1',
      public_key: endpoint.ed25519,
      x25519: endpoint.x25519,
      adapter: true,
      mcp_sources: ['files', 'results'],
    });
    expect(document.relays).toContain(relayUrl);
    // A sealed call addressed with what the document alone says is answered.
    const { answer, payload } = await client.sealedCall(
      { ed25519: document.public_key as string, x25519: document.x25519 as string },
      { kind: 'com.test.fs.echo', payload: { text: 'found by the well-known document' } },
    );
    expect(answer.kind).toBe('com.test.fs.echo.result');
    expect(readToolResult(payload).content).toEqual([
      { type: 'text', text: 'found by the well-known document' },
    ]);
  });

  it('refuses a well-known document over http to a host that is not loopback, without fetching (§10.10)', async () => {
    await expect(fetchWellKnown('http://example.com')).rejects.toBeInstanceOf(WellKnownRefused);
  });

  it('pages through the catalog in the clear (§10.8): every page canonical, sorted, with the right cursor', async () => {
    catalog = [];
    let cursor: string | undefined;
    let total = -1;
    do {
      const content = JSON.stringify({ limit: 7, ...(cursor && { cursor }) });
      const { request, answer } = await client.catalogPage(endpoint.ed25519, content);
      expect(answer.kind).toBe('xp.schema.catalog.result');
      // §10.7: in the clear, tags p, e, expiration.
      expect(answer.tags.map((t: string[]) => t[0])).toEqual(['p', 'e', 'expiration']);
      expect(answer.tags[1]).toEqual(['e', request.id]);
      const page = readCatalogPage(answer.content);
      total = page.total;
      catalog.push(...page.contracts);
      cursor = page.next_cursor;
    } while (cursor);
    expect(catalog).toHaveLength(total);
    const kinds = catalog.map((c) => c.kind);
    expect(kinds).toContain('com.test.files.read_text_file');
    expect(kinds).toContain('com.test.fs.echo');
  });

  it('a kinds pattern a.b.* matches the kinds below a.b, not a.b itself (§10.8)', async () => {
    const totalFor = async (kinds: string[]) => {
      const { answer } = await client.catalogPage(endpoint.ed25519, JSON.stringify({ kinds }));
      const page = readCatalogPage(answer.content);
      expect(page.contracts.every((c) => kindMatches(c.kind, kinds))).toBe(true);
      return page.total;
    };
    expect(await totalFor(['com.test.fs.*'])).toBe(
      catalog.filter((c) => c.kind.startsWith('com.test.fs.')).length,
    );
    expect(await totalFor(['com.test.fs.echo.*'])).toBe(0);
    expect(await totalFor(['com.test.fs.echo'])).toBe(1);
  });

  it('describe without an intent lists the catalog in kind order, as the document defines (§10.8)', async () => {
    const { answer, payload } = await client.sealedCall(endpoint, {
      kind: 'xp.schema.describe',
      payload: { limit: 100 },
    });
    expect(answer.kind).toBe('xp.schema.describe.result');
    readDescribeAnswer(payload);
    expect(payload).toEqual(browseAnswer(catalog, { limit: 100 }));
    // An empty intent is no intent: the same list.
    const empty = await client.sealedCall(endpoint, {
      kind: 'xp.schema.describe',
      payload: { intent: '', limit: 100 },
    });
    expect(empty.payload).toEqual(payload);
  });

  const discovery = vectorFile('xp-discovery.json');
  it('xp-discovery refusals, sealed to the real endpoint: catalog and describe SCHEMA_VIOLATION, refresh NOT_FOUND', async () => {
    const codes: [string, string][] = [];
    for (const v of discovery.catalog_refused as Any[]) {
      const { answer, payload } = await client.sealedCall(endpoint, {
        kind: 'xp.schema.catalog',
        plaintext: v.request_content,
      });
      codes.push([v.id, answer.kind === 'xp.error' ? readXpError(payload).code : answer.kind]);
    }
    for (const v of discovery.describe_refused as Any[]) {
      const { answer, payload } = await client.sealedCall(endpoint, {
        kind: 'xp.schema.describe',
        payload: v.request,
      });
      codes.push([v.id, answer.kind === 'xp.error' ? readXpError(payload).code : answer.kind]);
    }
    for (const v of discovery.refresh as Any[]) {
      const { answer, payload } = await client.sealedCall(endpoint, {
        kind: 'xp.schema.refresh',
        payload: v.request,
      });
      codes.push([v.id, answer.kind === 'xp.error' ? readXpError(payload).code : answer.kind]);
    }
    const expected = [...discovery.catalog_refused, ...discovery.describe_refused, ...discovery.refresh].map(
      (v: Any) => [v.id, v.code],
    );
    expect(codes).toEqual(expected);
  });

  it('a sealed tool call to server-filesystem is answered, decrypted and verified (§6.3, §10.9)', async () => {
    const { request, answer, payload } = await client.sealedCall(endpoint, {
      kind: 'com.test.files.read_text_file',
      payload: checkToolArguments({ path: join(procs.dir, 'hello.txt') }),
    });
    expect(answer.kind).toBe('com.test.files.read_text_file.result');
    // §10.7: p, x25519, e, expiration (the request's).
    expect(answer.tags).toEqual([
      ['p', me.ed25519.publicKey],
      ['x25519', endpoint.x25519],
      ['e', request.id],
      request.tags.at(-1),
    ]);
    expect(readToolResult(payload).content[0]?.text).toBe('hello from an independent client\n');
  });

  const calls = vectorFile('xp-tool-calls.json');
  it.each((calls.cases as Any[]).map((v: Any) => [v.id, v] as const))(
    'xp-tool-calls %s: exactly the result payload',
    async (_id, v: Any) => {
      const { answer, payload } = await client.sealedCall(endpoint, { kind: v.kind, payload: v.request });
      expect(answer.kind).toBe(`${v.kind}.result`);
      expect(readToolResult(payload)).toEqual(v.result);
    },
  );

  it.each((calls.refused as Any[]).map((v: Any) => [v.id, v] as const))(
    'xp-tool-calls refused %s: the xp.error code',
    async (_id, v: Any) => {
      const body =
        v.request_plaintext === undefined ? { payload: v.request } : { plaintext: v.request_plaintext };
      const { answer, payload } = await client.sealedCall(endpoint, { kind: v.kind, ...body });
      expect(answer.kind).toBe('xp.error');
      expect(readXpError(payload).code).toBe(v.code);
    },
  );

  it('an unknown tool and invalid arguments come back as xp.error NOT_FOUND and SCHEMA_VIOLATION (§10.2)', async () => {
    const unknown = await client.sealedCall(endpoint, { kind: 'com.test.files.no_such_tool', payload: {} });
    expect([unknown.answer.kind, readXpError(unknown.payload).code]).toEqual(['xp.error', 'NOT_FOUND']);
    const invalid = await client.sealedCall(endpoint, {
      kind: 'com.test.files.read_text_file',
      payload: { path: 7 },
    });
    expect([invalid.answer.kind, readXpError(invalid.payload).code]).toEqual([
      'xp.error',
      'SCHEMA_VIOLATION',
    ]);
    expect(mcpFaceOf(invalid.payload, true)).toMatchObject({ result: { isError: true } });
  });

  it('never answers a request that fails the addressing step (§4 step 3a): a second p tag', async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = newIdentity().ed25519.publicKey;
    const dropped = sealEvent(me, endpoint, {
      kind: 'com.test.fs.echo',
      created_at: now,
      payload: { text: 'must not run' },
      expiration: now + 60,
      extraTags: [['p', other]],
    });
    expect(await client.publish(dropped)).toMatchObject({ accepted: true });
    // A control request from the same sender, sent after it, is answered: the endpoint has read
    // past the dropped one by then.
    const control = await client.sealedCall(endpoint, {
      kind: 'com.test.fs.echo',
      payload: { text: 'control' },
    });
    expect(readToolResult(control.payload).content).toEqual([{ type: 'text', text: 'control' }]);
    const answers = await client.subscribe('dropped', [{ '#e': [dropped.id] }]);
    expect(answers).toEqual([]);
  });
});
