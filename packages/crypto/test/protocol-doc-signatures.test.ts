/**
 * docs/protocol.md §1–4 and §8.1 cannot go stale: the vectors are read out of the document and
 * checked against the code on both backends, and the constants the prose states are compared with
 * the ones the code uses.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _SMALL_ORDER_ENCODINGS } from '../src/ed25519-rule.js';
import {
  bytesToHex,
  CryptoError,
  canonicalJson,
  computeEventId,
  type Ed25519KeyString,
  ed25519PreCheck,
  eventIdPreimage,
  formatKey,
  hexToBytes,
  isValidKind,
  MAX_EVENT_BYTES,
  nobleSignatures,
  parseKey,
  signEvent,
  verifyEvent,
  type XpEvent,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';
import { loadVectors } from './_testdata.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/protocol.md'), 'utf8');
const BACKENDS = [nobleSignatures, nodeSignatures] as const;

/** The text of the section starting at `heading`, up to the next heading of the same or higher level. */
function section(heading: string): string {
  const start = DOC.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`docs/protocol.md has no "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = DOC.slice(start + heading.length + 1);
  const next = new RegExp(`\\n#{1,${level}} `).exec(rest);
  return rest.slice(0, next ? next.index : undefined);
}

const VECTORS = new Map<string, unknown>();
for (const match of section('### 8.1').matchAll(/<!-- vector: ([\w-]+) -->\n```json\n([\s\S]*?)\n```/g)) {
  VECTORS.set(match[1]!, JSON.parse(match[2]!));
}
function vector<T>(name: string): T {
  if (!VECTORS.has(name)) throw new Error(`docs/protocol.md §8.1 has no vector "${name}"`);
  return VECTORS.get(name) as T;
}

interface Key {
  secret: string;
  public: Ed25519KeyString;
}
interface EventVector {
  signer: string;
  preimage: string;
  id: string;
  sig: string;
  event: XpEvent;
}
const keys = vector<Record<string, Key>>('keys');

describe('docs/protocol.md §8.1 signature vectors', () => {
  it('has every vector this test knows', () => {
    expect([...VECTORS.keys()].sort()).toEqual(
      ['canonical-json', 'event-minimal', 'event-request', 'event-response', 'keys', 'rejections'].sort(),
    );
  });
  it.each(Object.entries(keys))('keys.%s: the public key of the seed', (name, key) => {
    for (const backend of BACKENDS) {
      expect({
        key: name,
        backend: backend.name,
        public: formatKey('ed25519', backend.publicKey(hexToBytes(key.secret, 32))),
      }).toEqual({
        key: name,
        backend: backend.name,
        public: key.public,
      });
    }
  });
  it('canonical-json: every output, every refusal', () => {
    const cases = vector<{ input: string; output?: string; refused?: true }[]>('canonical-json');
    for (const [i, c] of cases.entries()) {
      const id = `canonical-json[${i}] ${c.input}`;
      if (c.refused) {
        expect({
          case: id,
          error: (() => {
            try {
              canonicalJson(JSON.parse(c.input));
              return null;
            } catch (error) {
              return error instanceof CryptoError ? error.code : String(error);
            }
          })(),
        }).toEqual({ case: id, error: 'INVALID_PAYLOAD' });
      } else {
        expect({ case: id, output: canonicalJson(JSON.parse(c.input)) }).toEqual({
          case: id,
          output: c.output,
        });
      }
    }
  });
  it.each(['event-request', 'event-response', 'event-minimal'])(
    '%s: preimage, id and sig from the template, on both backends',
    (name) => {
      const v = vector<EventVector>(name);
      const key = keys[v.signer];
      if (!key) throw new Error(`${name}: unknown signer ${v.signer}`);
      const { created_at, kind, tags, content } = v.event;
      expect({ vector: name, preimage: eventIdPreimage(v.event) }).toEqual({
        vector: name,
        preimage: v.preimage,
      });
      expect({ vector: name, id: computeEventId(v.event) }).toEqual({ vector: name, id: v.id });
      for (const backend of BACKENDS) {
        const event = signEvent({ created_at, kind, tags, content }, hexToBytes(key.secret, 32), backend);
        expect({ vector: name, backend: backend.name, event }).toEqual({
          vector: name,
          backend: backend.name,
          event: v.event,
        });
        expect({ vector: name, backend: backend.name, verdict: verifyEvent(v.event, backend).ok }).toEqual({
          vector: name,
          backend: backend.name,
          verdict: true,
        });
      }
      expect([v.event.id, v.event.sig, v.event.pubkey]).toEqual([v.id, v.sig, key.public]);
    },
  );
  it('rejections: each refused at the documented step, on both backends', () => {
    interface Rejection {
      name: string;
      base: string;
      set: Record<string, unknown>;
      code: string;
      precheck?: string | null;
    }
    const cases = vector<Rejection[]>('rejections');
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      const event = { ...vector<EventVector>(c.base).event, ...c.set };
      for (const backend of BACKENDS) {
        expect({ case: c.name, backend: backend.name, verdict: verifyEvent(event, backend) }).toMatchObject({
          case: c.name,
          backend: backend.name,
          verdict: { ok: false, code: c.code },
        });
      }
      if (c.precheck !== undefined) {
        const reason = ed25519PreCheck(
          hexToBytes(event.sig as string, 64),
          parseKey(event.pubkey as string, 'ed25519').bytes,
        );
        expect({ case: c.name, precheck: reason }).toEqual({ case: c.name, precheck: c.precheck });
      }
    }
  });
});

describe('docs/protocol.md §1–4 prose states what the code does', () => {
  it('§3 lists exactly the small-order encodings of the pre-check', () => {
    const listed = [...section('## 3.').matchAll(/^\s*([0-9a-f]{64})\s+order \d/gm)].map((m) => m[1]);
    expect(listed).toEqual(_SMALL_ORDER_ENCODINGS.map(bytesToHex));
  });
  it('§2.4 states the size limit', () => {
    expect(section('### 2.4')).toContain(`${MAX_EVENT_BYTES.toLocaleString('en-US')} bytes`);
  });
  it('§2.2 states the kind syntax the code enforces', () => {
    const regex = /regex `([^`]+)`/.exec(section('### 2.2'))![1]!;
    for (const kind of [
      'a',
      'a.b',
      'com.test.fs.read_text_file',
      'a..b',
      '.a',
      'a.',
      'a/b',
      'a b',
      'é',
      '',
    ]) {
      expect({ kind, doc: new RegExp(regex).test(kind) }).toEqual({ kind, doc: isValidKind(kind) });
    }
  });
  it('§2.3 states the preimage the code hashes', () => {
    expect(section('### 2.3')).toContain('RFC8785(["xp/1/event", pubkey, created_at, kind, tags, content])');
    const v = vector<EventVector>('event-minimal');
    expect(v.preimage).toBe(
      canonicalJson([
        'xp/1/event',
        v.event.pubkey,
        v.event.created_at,
        v.event.kind,
        v.event.tags,
        v.event.content,
      ]),
    );
  });
  it('§3 names the verdict of every "Taming" edge case that the vector test asserts', () => {
    const row = /\| verdict \|([^\n]+)\|/.exec(section('## 3.'))![1]!;
    const doc = row.split('|').map((cell) => cell.trim() === '✓');
    const file = loadVectors<{ message: string; pub_key: string; signature: string }[]>(
      'noble_ed25519_edge_cases.json',
    );
    expect(doc).toHaveLength(file.length);
    for (const [i, c] of file.entries()) {
      const verdict = nodeSignatures.verify(
        hexToBytes(c.signature),
        hexToBytes(c.message),
        hexToBytes(c.pub_key),
      );
      expect({ case: `edge case ${i}`, verdict }).toEqual({ case: `edge case ${i}`, verdict: doc[i] });
    }
  });
});
