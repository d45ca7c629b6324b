/**
 * `format` as an assertion. Every grammar here accepts only strings that both the adapter's
 * validator (ajv + ajv-formats, "full" mode) and the format's defining standard (RFC 3339 for
 * dates and times, RFC 3986 for URIs, RFC 3987 for IRIs, …) accept — the intersection, so the
 * grammar stays sound whichever of the two a validator follows (JSON Schema test suites and the
 * Python/Rust `jsonschema` libraries follow the RFCs; ajv-formats is laxer in places). Each known
 * string format compiles to a grammar of the string's content, spelled as `JSON.stringify` spells
 * it. Where ajv-formats accepts more than a grammar here does, `exact` is false and the gap is
 * named.
 * @module
 */
import type { _GrammarBuilder } from './grammar-builder.js';

/** @internal A compiled string format. */
export interface _FormatGrammar {
  /** GBNF for the string content (without quotes); `null` = accept any string. */
  readonly content: string | null;
  /** `null` when exact; otherwise what is left out. */
  readonly gap: string | null;
  /** Length bounds of the content, for intersecting with minLength/maxLength. */
  readonly minLength: number;
  readonly maxLength: number | undefined;
}

/** @internal Formats ajv-formats applies to numbers, with the integer bounds they impose. */
export const _NUMBER_FORMATS: Record<string, { integer: boolean; lo?: number; hi?: number }> = {
  int32: { integer: true, lo: -2147483648, hi: 2147483647 },
  int64: { integer: true },
  float: { integer: false },
  double: { integer: false },
};

/**
 * Every `format` name ajv-formats validates — the validator the adapter checks calls with. A
 * grammar treats exactly these as assertions; any other name is an annotation, as ajv treats it.
 * `@xprotocol/translate` uses this same list, so grammar and validator never disagree on it.
 */
export const AJV_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

const ci = (word: string) =>
  word
    .split('')
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : `"${c}"`))
    .join(' ');

/**
 * Formats the JSON Schema specification defines (draft-07 and later) that ajv-formats does not
 * check. ajv ignores them, but the reference validators (JSON Schema's own test suite, Python
 * `jsonschema`, Rust `jsonschema`) assert them in every draft; a grammar asserts them too (a sound
 * narrowing for ajv, reported), so a model writes what the schema author asked for.
 * @internal
 */
export const _SPEC_ONLY_FORMATS: ReadonlySet<string> = new Set(['iri', 'iri-reference']);

// RFC 3987 §2.2 ucschar and iprivate, written raw (the JSON.stringify spelling)
const UCSCHAR =
  '[\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF\\U00010000-\\U0001FFFD\\U00020000-\\U0002FFFD\\U00030000-\\U0003FFFD\\U00040000-\\U0004FFFD\\U00050000-\\U0005FFFD\\U00060000-\\U0006FFFD\\U00070000-\\U0007FFFD\\U00080000-\\U0008FFFD\\U00090000-\\U0009FFFD\\U000A0000-\\U000AFFFD\\U000B0000-\\U000BFFFD\\U000C0000-\\U000CFFFD\\U000D0000-\\U000DFFFD\\U000E1000-\\U000EFFFD]';
const IPRIVATE = '[\\uE000-\\uF8FF\\U000F0000-\\U000FFFFD\\U00100000-\\U0010FFFD]';

/**
 * @internal String formats whose complement can be compiled (`not: {format}`): the grammar is
 * exact for ajv-formats, written over the characters themselves, and contains every string the
 * format's standard admits (RFC 3339 `full-date` and Appendix A `duration`, RFC 4122 UUIDs), so
 * its complement is inside both ajv's and the standard's. Left out: `email` (RFC 5321 also admits
 * quoted local parts), `ipv4`/`ipv6` (RFC 2673/4291 text forms are read with or without leading
 * zeros and zone ids by different validators), `byte` (not a JSON Schema format).
 */
export const _EXACT_STRING_FORMATS: ReadonlySet<string> = new Set(['date', 'duration', 'uuid']);

const LEAP = 'leap seconds (":60") are not accepted';
const OFFSET = 'offsets are "Z" or "±hh:mm" (RFC 3339 §5.6; ajv-formats also takes "±hh" and "±hhmm")';

/** @internal The grammar of a known string format, or `undefined` for a number format / unknown. */
export function _formatGrammar(g: _GrammarBuilder, name: string): _FormatGrammar | undefined {
  switch (name) {
    case 'date':
      return { content: dateRule(g), gap: null, minLength: 10, maxLength: 10 };
    case 'time':
      return { content: timeRule(g, true), gap: `${LEAP}; ${OFFSET}`, minLength: 9, maxLength: undefined };
    case 'iso-time':
      return { content: timeRule(g, false), gap: `${LEAP}; ${OFFSET}`, minLength: 8, maxLength: undefined };
    case 'date-time':
      return dateTimeFormat(g);
    case 'iso-date-time':
      return isoDateTimeFormat(g);
    case 'duration':
      return durationFormat(g);
    case 'uuid':
      return uuidFormat(g);
    case 'ipv4':
      return { content: ipv4Rule(g), gap: null, minLength: 7, maxLength: 15 };
    case 'ipv6':
      return ipv6Format(g);
    case 'hostname':
      return hostnameFormat(g);
    case 'email':
      return emailFormat(g);
    case 'uri':
    case 'uri-reference':
    case 'iri':
    case 'iri-reference':
      return uriFormat(g, name);
    case 'url':
      return urlFormat(g);
    case 'byte':
      return byteFormat(g);
    case 'json-pointer':
      return jsonPointerFormat(g);
    case 'password':
    case 'binary':
      return { content: null, gap: null, minLength: 0, maxLength: undefined };
    default:
      return undefined;
  }
}

// The format grammars share their building blocks by rule name (`g.fixed`), so each is defined
// once per grammar whichever format asks first. A rule's body is built before the rule is named:
// the rules it refers to come first in the grammar.

/** The shared rule `name` with `body`, defined on first use. */
function fixedRule(g: _GrammarBuilder, name: string, body: string): string {
  return g.fixed(name, () => body);
}

function hexDigitRule(g: _GrammarBuilder): string {
  return fixedRule(g, 'fmt-hex', '[0-9a-fA-F]');
}

function octetRule(g: _GrammarBuilder): string {
  return fixedRule(g, 'fmt-octet', '"25" [0-5] | "2" [0-4] [0-9] | "1" [0-9] [0-9] | [1-9]? [0-9]');
}

function ipv4Rule(g: _GrammarBuilder): string {
  return fixedRule(
    g,
    'fmt-ipv4',
    `${octetRule(g)} "." ${octetRule(g)} "." ${octetRule(g)} "." ${octetRule(g)}`,
  );
}

/** RFC 3339 `full-date`, with the days of each month and leap years exact. */
function dateRule(g: _GrammarBuilder): string {
  fixedRule(g, 'fmt-d31', '"0" [1-9] | [12] [0-9] | "3" [01]');
  fixedRule(g, 'fmt-d30', '"0" [1-9] | [12] [0-9] | "30"');
  fixedRule(g, 'fmt-d28', '"0" [1-9] | "1" [0-9] | "2" [0-8]');
  fixedRule(
    g,
    'fmt-leap-year',
    '[0-9] [0-9] ( "0" [48] | [2468] [048] | [13579] [26] ) | ( [02468] [048] | [13579] [26] ) "00"',
  );
  return fixedRule(
    g,
    'fmt-date',
    '[0-9]{4} "-" ( ( "01" | "03" | "05" | "07" | "08" | "10" | "12" ) "-" fmt-d31 | ( "04" | "06" | "09" | "11" ) "-" fmt-d30 | "02-" fmt-d28 ) | fmt-leap-year "-02-29"',
  );
}

/** RFC 3339 `full-time` (`tzRequired`) or ajv-formats' `iso-time` (the offset optional). */
function timeRule(g: _GrammarBuilder, tzRequired: boolean): string {
  fixedRule(g, 'fmt-hh', '[01] [0-9] | "2" [0-3]');
  fixedRule(g, 'fmt-mm', '[0-5] [0-9]');
  // RFC 3339 §5.6 time-numoffset: ("+" / "-") time-hour ":" time-minute (ajv-formats also
  // takes "+01" and "+0100")
  fixedRule(g, 'fmt-tz', '[zZ] | [+-] fmt-hh ":" fmt-mm');
  return fixedRule(
    g,
    tzRequired ? 'fmt-time' : 'fmt-iso-time',
    `fmt-hh ":" fmt-mm ":" fmt-mm ( "." [0-9]+ )? fmt-tz${tzRequired ? '' : '?'}`,
  );
}

function pctEncodedRule(g: _GrammarBuilder): string {
  return fixedRule(g, 'fmt-pct', `"%" ${hexDigitRule(g)} ${hexDigitRule(g)}`);
}

function dateTimeFormat(g: _GrammarBuilder): _FormatGrammar {
  // RFC 3339 §5.6: date-time = full-date "T" full-time ("t" too: ABNF strings are
  // case-insensitive); the space its §5.6 note mentions is not in the grammar, though
  // ajv-formats takes it
  return {
    content: fixedRule(g, 'fmt-date-time', `${dateRule(g)} [tT] ${timeRule(g, true)}`),
    gap: `${LEAP}; ${OFFSET}; only "T" or "t" separates date and time (RFC 3339 §5.6; ajv-formats also takes a space)`,
    minLength: 20,
    maxLength: undefined,
  };
}

function isoDateTimeFormat(g: _GrammarBuilder): _FormatGrammar {
  return {
    content: fixedRule(g, 'fmt-iso-date-time', `${dateRule(g)} [tT ] ${timeRule(g, false)}`),
    gap: `${LEAP}; ${OFFSET}; only "T", "t" or a space separate date and time`,
    minLength: 19,
    maxLength: undefined,
  };
}

function durationFormat(g: _GrammarBuilder): _FormatGrammar {
  fixedRule(
    g,
    'fmt-dur-date',
    '[0-9]+ "Y" ( [0-9]+ "M" )? ( [0-9]+ "D" )? | [0-9]+ "M" ( [0-9]+ "D" )? | [0-9]+ "D"',
  );
  fixedRule(
    g,
    'fmt-dur-time',
    '"T" ( [0-9]+ "H" ( [0-9]+ "M" )? ( [0-9]+ "S" )? | [0-9]+ "M" ( [0-9]+ "S" )? | [0-9]+ "S" )',
  );
  return {
    content: fixedRule(g, 'fmt-duration', '"P" ( fmt-dur-date fmt-dur-time? | fmt-dur-time | [0-9]+ "W" )'),
    gap: null,
    minLength: 3,
    maxLength: undefined,
  };
}

function uuidFormat(g: _GrammarBuilder): _FormatGrammar {
  const h = hexDigitRule(g);
  return {
    content: fixedRule(
      g,
      'fmt-uuid',
      `( ${ci('urn:uuid:')} )? ${h}{8} "-" ${h}{4} "-" ${h}{4} "-" ${h}{4} "-" ${h}{12}`,
    ),
    gap: null,
    minLength: 36,
    maxLength: 45,
  };
}

/** RFC 4291 §2.2 text forms: eight groups, one `::` elision, an IPv4 tail. */
function ipv6Format(g: _GrammarBuilder): _FormatGrammar {
  const h = fixedRule(g, 'fmt-h16', `${hexDigitRule(g)}{1,4}`);
  const c = `( ":" ${h} )`;
  const l = `( ${h} ":" )`;
  const v4 = ipv4Rule(g);
  const body = [
    `${l}{7} ( ${h} | ":" )`,
    `${l}{6} ( ":" ${h} | ${v4} | ":" )`,
    `${l}{5} ( ${c}{1,2} | ":" ${v4} | ":" )`,
    `${l}{4} ( ${c}{1,3} | ${c}? ":" ${v4} | ":" )`,
    `${l}{3} ( ${c}{1,4} | ${c}{0,2} ":" ${v4} | ":" )`,
    `${l}{2} ( ${c}{1,5} | ${c}{0,3} ":" ${v4} | ":" )`,
    `${l} ( ${c}{1,6} | ${c}{0,4} ":" ${v4} | ":" )`,
    `":" ( ${c}{1,7} | ${c}{0,5} ":" ${v4} | ":" )`,
  ].join(' | ');
  return { content: fixedRule(g, 'fmt-ipv6', body), gap: null, minLength: 2, maxLength: 45 };
}

function hostnameFormat(g: _GrammarBuilder): _FormatGrammar {
  fixedRule(g, 'fmt-label63', '[a-zA-Z0-9] ( [a-zA-Z0-9-]{0,61} [a-zA-Z0-9] )?');
  fixedRule(g, 'fmt-label20', '[a-zA-Z0-9] ( [a-zA-Z0-9-]{0,18} [a-zA-Z0-9] )?');
  return {
    content: fixedRule(g, 'fmt-hostname', 'fmt-label63 ( "." fmt-label20 ){0,8} "."?'),
    gap: 'hostnames are limited to a first label of up to 63 characters and 8 more labels of up to 20 (keeps the 253-character limit)',
    minLength: 1,
    maxLength: 232,
  };
}

function emailFormat(g: _GrammarBuilder): _FormatGrammar {
  fixedRule(g, 'fmt-email-atom', "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+");
  fixedRule(g, 'fmt-email-label', '[a-zA-Z0-9] ( [a-zA-Z0-9-]* [a-zA-Z0-9] )?');
  return {
    content: fixedRule(
      g,
      'fmt-email',
      'fmt-email-atom ( "." fmt-email-atom )* "@" ( fmt-email-label "." )+ fmt-email-label',
    ),
    gap: null,
    minLength: 5,
    maxLength: undefined,
  };
}

/** `uri`, `uri-reference`, `iri` and `iri-reference`. */
function uriFormat(g: _GrammarBuilder, name: string): _FormatGrammar {
  // RFC 3986 §3 / §4.1 (RFC 3987 §2.2 for IRIs: the same structure, non-ASCII characters
  // allowed where unreserved ones are). ajv-formats' regex has the same shape but is laxer
  // (a single "/" before an authority, ":" in the first segment of a relative reference, a
  // raw '"' in references); those strings are invalid URIs and left out.
  const iri = name.startsWith('iri');
  const ref = name.endsWith('-reference');
  const p = pctEncodedRule(g);
  const u = iri
    ? fixedRule(g, 'fmt-iri-ucs', `[a-zA-Z0-9._~-] | ${UCSCHAR}`)
    : fixedRule(g, 'fmt-uri-unres', '[a-zA-Z0-9._~-]');
  const k = iri ? 'iri' : 'uri';
  const pchar = fixedRule(g, `fmt-${k}-pchar`, `${u} | [!$&'()*+,;=:@] | ${p}`);
  const pcharNc = fixedRule(g, `fmt-${k}-pchar-nc`, `${u} | [!$&'()*+,;=@] | ${p}`);
  const reg = fixedRule(g, `fmt-${k}-reg`, `${u} | [!$&'()*+,;=] | ${p}`);
  const qf = fixedRule(g, `fmt-${k}-qf`, `${pchar} | [/?]${iri ? ` | ${IPRIVATE}` : ''}`);
  const frag = fixedRule(g, `fmt-${k}-frag`, `${pchar} | [/?]`);
  const user = fixedRule(g, `fmt-${k}-user`, `${u} | [!$&'()*+,;=:] | ${p}`);
  const auth = `"//" ( ${user}* "@" )? ${reg}* ( ":" [0-9]* )? ( "/" ${pchar}* )*`;
  const absolute = `"/" ( ${pchar}+ ( "/" ${pchar}* )* )?`;
  const scheme = fixedRule(g, 'fmt-uri-scheme', '[a-zA-Z] [a-zA-Z0-9+.-]* ":"');
  const tail = `( "?" ${qf}* )? ( "#" ${frag}* )?`;
  // a URI's hier-part may be empty by RFC 3986, not by ajv-formats' "uri": required there
  const absoluteForm = `${scheme} ( ${auth} | ${absolute} | ${pchar}+ ( "/" ${pchar}* )* )${ref || iri ? '?' : ''} ${tail}`;
  const body = ref
    ? `${absoluteForm} | ( ${auth} | ${absolute} | ${pcharNc}+ ( "/" ${pchar}* )* )? ${tail}`
    : absoluteForm;
  return {
    content: fixedRule(g, `fmt-${name}`, body),
    gap: iri
      ? 'IP-literal hosts ("[...]") are not accepted; checked as RFC 3987 although ajv-formats ignores this format'
      : 'IP-literal hosts ("[...]") are not accepted; only RFC 3986 URIs (ajv-formats also takes a few malformed ones)',
    minLength: ref ? 0 : 2,
    maxLength: undefined,
  };
}

function urlFormat(g: _GrammarBuilder): _FormatGrammar {
  fixedRule(g, 'fmt-url-label', '[a-zA-Z0-9]+ ( "-" [a-zA-Z0-9]+ )*');
  return {
    content: fixedRule(
      g,
      'fmt-url',
      `( ${ci('http')} ${ci('s')}? | ${ci('ftp')} ) "://" fmt-url-label ( "." fmt-url-label )* "." [a-zA-Z]{2} [a-zA-Z]* ( ":" [0-9]{2,5} )? ( "/" [!#-[\\]-~]* )?`,
    ),
    gap: 'only ASCII domain names (no IP addresses, user info, or non-ASCII/escaped path characters)',
    minLength: 10,
    maxLength: undefined,
  };
}

function byteFormat(g: _GrammarBuilder): _FormatGrammar {
  fixedRule(g, 'fmt-b64', '[A-Za-z0-9+/]');
  return {
    content: fixedRule(
      g,
      'fmt-byte',
      '( fmt-b64 fmt-b64 fmt-b64 fmt-b64 )* ( fmt-b64 fmt-b64 "==" | fmt-b64 fmt-b64 fmt-b64 "=" )?',
    ),
    gap: null,
    minLength: 0,
    maxLength: undefined,
  };
}

function jsonPointerFormat(g: _GrammarBuilder): _FormatGrammar {
  // `canon-char` is defined here, before the pointer's rules, although they do not use it: where a
  // grammar first defines a rule fixes its place in the output, and it counts against maxRules
  _canonChar(g);
  fixedRule(
    g,
    'fmt-jp-char',
    '[^"\\\\\\x00-\\x1f~/] | "\\\\" ["\\\\bfnrt] | "\\\\u00" ( "0" [0-7bef] | "1" [0-9a-f] ) | "~0" | "~1"',
  );
  return {
    content: fixedRule(g, 'fmt-json-pointer', '( "/" fmt-jp-char* )*'),
    gap: null,
    minLength: 0,
    maxLength: undefined,
  };
}

/**
 * @internal `canon-char`: one character spelled as `JSON.stringify` spells it (literal, or `\"`
 * `\\` `\b` `\f` `\n` `\r` `\t`, or `\u00xx` lowercase for other control characters).
 */
export function _canonChar(g: _GrammarBuilder): string {
  return g.fixed(
    'canon-char',
    () => '[^"\\\\\\x00-\\x1f] | "\\\\" ["\\\\bfnrt] | "\\\\u00" ( "0" [0-7bef] | "1" [0-9a-f] )',
  );
}
