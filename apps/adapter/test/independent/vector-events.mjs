/**
 * The events and placeholders of the relay vector files (testdata/vectors/xp-relay-frames.json
 * and xp-relay-filters.json), built as their `description`, `placeholders` and `event_fields`
 * say, with this independent client's own signing (docs/protocol.md §2–§3). It imports nothing
 * from this repository.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ed25519FromSeed } from './ed25519.mjs';
import { EVENT_FIELDS, signEvent } from './event.mjs';

/** 32 random lowercase hex digits (`{run}`, `{live}`). */
export const randomTag = () => randomBytes(16).toString('hex');

/**
 * Replaces `{run}`, `{live}`, `{NAME}` and `{NAME.member}` in a frame or a string.
 *
 * @param {string} text @param {Record<string, string>} values
 */
export function fillPlaceholders(text, values) {
  return text.replace(/\{([A-Za-z0-9_]+(?:\.[a-z_]+)?)\}/g, (whole, name) =>
    name in values ? values[name] : whole,
  );
}

/** @param {number} t @param {string | undefined} how */
function createdAtText(t, how) {
  if (how === 'decimal-point') return `${t}.0`;
  if (how === 'exponent') {
    const digits = String(t);
    const rest = digits.slice(1).replace(/0+$/, '');
    return `${digits[0]}${rest ? `.${rest}` : ''}e${digits.length - 1}`;
  }
  return JSON.stringify(t);
}

/**
 * Signs one vector event and returns its placeholder values: `{NAME}` (as written in a frame),
 * `{NAME.delivered}`, `.id`, `.sig`, `.pubkey`, `.id_prefix`, `.id_upper`, and the signed event.
 *
 * @param {string} name
 * @param {Record<string, unknown>} spec the event's fields, as `event_fields` describes them
 * @param {{ keys: Record<string, { secret_key: string }>, now: number, retention: number, values: Record<string, string> }} ctx
 */
export function vectorEvent(name, spec, ctx) {
  const identity = ed25519FromSeed(Buffer.from(ctx.keys[spec.key].secret_key, 'hex'));
  const base = spec.relative_to === 'retention' ? ctx.now - ctx.retention : ctx.now;
  const createdAt = spec.created_at ?? base + spec.created_at_offset;
  const fill = (/** @type {string} */ s) => fillPlaceholders(s, ctx.values);
  const tags = spec.tags.map((/** @type {string[]} */ t) => t.map(fill));
  if (spec.expiration_offset !== undefined)
    tags.push(['expiration', String(ctx.now + spec.expiration_offset)]);
  const content = spec.content_bytes === undefined ? fill(spec.content) : 'a'.repeat(spec.content_bytes);
  const signed = signEvent(
    identity,
    { created_at: createdAt, kind: spec.kind, tags, content },
    { allowOversize: true },
  );
  const own = { ...ctx.values, [`${name}.id_upper`]: signed.id.toUpperCase(), [`${name}.sig`]: signed.sig };
  /** @type {Record<string, unknown>} */
  const wire = { ...signed };
  for (const [member, value] of Object.entries(spec.mutate ?? {})) {
    wire[member] = typeof value === 'string' ? fillPlaceholders(value, own) : value;
  }
  for (const member of spec.remove ?? []) delete wire[member];
  const order = [
    ...EVENT_FIELDS.filter((f) => f in wire),
    ...Object.keys(wire).filter((f) => !EVENT_FIELDS.includes(f)),
  ];
  const write = (/** @type {boolean} */ delivered) =>
    `{${order
      .map(
        (f) =>
          `${JSON.stringify(f)}:${f === 'created_at' && !delivered ? createdAtText(/** @type {number} */ (wire[f]), spec.created_at_text) : JSON.stringify(wire[f])}`,
      )
      .join(',')}}`;
  const asText = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : JSON.stringify(v));
  return {
    event: signed,
    values: {
      [name]: write(false),
      [`${name}.delivered`]: write(true),
      [`${name}.id`]: asText(wire.id),
      [`${name}.sig`]: asText(wire.sig),
      [`${name}.pubkey`]: asText(wire.pubkey),
      [`${name}.id_prefix`]: signed.id.slice(0, 16),
      [`${name}.id_upper`]: signed.id.toUpperCase(),
    },
  };
}
