/**
 * The events of the relay vector files (testdata/vectors/xp-relay-frames.json and
 * xp-relay-filters.json, docs/protocol.md §9): their templates signed at run time with the files'
 * fixed keys and the runner's clock, altered after signing where a case says so, and the
 * placeholders (`{run}`, `{NAME.id}`, `{now-N}` …) of frames and filters filled in.
 * @module
 */
import { bytesToHex, computeEventId, formatKey, hexToBytes, nobleSignatures } from '@xprotocol/crypto';

/** A key of a vector file: the Ed25519 seed in hex. */
export interface VectorKey {
  secret_key: string;
  pubkey?: string;
}

/** An event template of a vector file (its fields are described in the file). */
export interface VectorEventSpec {
  key: string;
  kind: string;
  tags: string[][];
  content: string;
  created_at_offset?: number;
  relative_to?: 'retention';
  created_at?: number;
  expiration_offset?: number;
  content_bytes?: number;
  mutate?: Record<string, unknown>;
  remove?: string[];
  created_at_text?: 'exponent' | 'decimal-point';
}

/** What fills the placeholders of one case. */
export interface VectorScope {
  nowSeconds: number;
  retentionSeconds: number;
  /** `run`, `live`: random hex per run, per case. */
  variables: Record<string, string>;
  events: Map<string, BuiltVectorEvent>;
}

/** A signed (and perhaps altered) event of a case. */
export interface BuiltVectorEvent {
  /** The members as sent, in the order of docs/protocol.md §2.4. */
  sent: Record<string, unknown>;
  /** The JSON text written in the frame. */
  text: string;
  /** The JSON text a relay delivers (created_at as an integer). */
  delivered: string;
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)(?:\.([a-z_]+))?\}/g;
const NOW = /^\{now([+-]\d+)\}$/;

/** Fills the `{…}` placeholders of `text`; an unknown one is an error in the vector file. */
export function _fillPlaceholders(text: string, scope: VectorScope): string {
  return text.replace(PLACEHOLDER, (whole, name: string, field: string | undefined) => {
    if (field === undefined && scope.variables[name] !== undefined) return scope.variables[name];
    const event = scope.events.get(name);
    if (!event) throw new Error(`vector placeholder ${whole} names nothing`);
    if (field === undefined) return event.text;
    if (field === 'delivered') return event.delivered;
    const id = String(event.sent.id);
    if (field === 'id_prefix') return id.slice(0, 16);
    if (field === 'id_upper') return id.toUpperCase();
    const value = event.sent[field];
    if (typeof value !== 'string') throw new Error(`vector placeholder ${whole}: no string member ${field}`);
    return value;
  });
}

/** Fills placeholders in a JSON value: strings are filled, and `"{now-N}"` becomes a number. */
export function _fillValue(value: unknown, scope: VectorScope): unknown {
  if (typeof value === 'string') {
    const now = NOW.exec(value);
    return now ? scope.nowSeconds + Number(now[1]) : _fillPlaceholders(value, scope);
  }
  if (Array.isArray(value)) return value.map((item) => _fillValue(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, _fillValue(v, scope)]));
  }
  return value;
}

/**
 * Signs the events of a case in the order the file lists them (an alteration may name an event
 * listed before it: `{other.sig}`), adding each to `scope.events`.
 */
export function _buildEvents(
  specs: Record<string, VectorEventSpec>,
  keys: Record<string, VectorKey>,
  scope: VectorScope,
): void {
  for (const [name, spec] of Object.entries(specs)) {
    const key = keys[spec.key];
    if (!key) throw new Error(`vector event ${name} names the unknown key ${spec.key}`);
    const signed = signSpec(spec, hexToBytes(key.secret_key), scope);
    // While it is altered, the event's own placeholders ({e.id_upper}) read the signed event.
    scope.events.set(name, { sent: signed, text: JSON.stringify(signed), delivered: JSON.stringify(signed) });
    const sent: Record<string, unknown> = { ...signed };
    for (const [member, value] of Object.entries(spec.mutate ?? {})) sent[member] = _fillValue(value, scope);
    for (const member of spec.remove ?? []) delete sent[member];
    scope.events.set(name, {
      sent,
      text: writeEvent(sent, spec.created_at_text),
      delivered: JSON.stringify(sent),
    });
  }
}

function signSpec(spec: VectorEventSpec, secretKey: Uint8Array, scope: VectorScope): Record<string, unknown> {
  const base =
    spec.relative_to === 'retention' ? scope.nowSeconds - scope.retentionSeconds : scope.nowSeconds;
  const created_at = spec.created_at ?? base + (spec.created_at_offset ?? 0);
  const tags = _fillValue(spec.tags, scope) as string[][];
  if (spec.expiration_offset !== undefined) {
    tags.push(['expiration', String(scope.nowSeconds + spec.expiration_offset)]);
  }
  const content =
    spec.content_bytes === undefined
      ? _fillPlaceholders(spec.content, scope)
      : 'a'.repeat(spec.content_bytes);
  const pubkey = formatKey('ed25519', nobleSignatures.publicKey(secretKey));
  const unsigned = { pubkey, created_at, kind: spec.kind, tags, content };
  // Signed by hand rather than by signEvent, which refuses the oversized events a case needs.
  const id = computeEventId(unsigned);
  const sig = bytesToHex(nobleSignatures.sign(hexToBytes(id), secretKey));
  return { id, pubkey, created_at, kind: spec.kind, tags, content, sig };
}

/** `JSON.stringify`, with `created_at` written in the form a case asks for. */
function writeEvent(event: Record<string, unknown>, form: VectorEventSpec['created_at_text']): string {
  const text = JSON.stringify(event);
  if (form === undefined || typeof event.created_at !== 'number') return text;
  const digits = String(event.created_at);
  const written =
    form === 'exponent' ? `${digits[0]}.${digits.slice(1)}e${digits.length - 1}` : `${digits}.0`;
  return text.replace(`"created_at":${digits},`, `"created_at":${written},`);
}
