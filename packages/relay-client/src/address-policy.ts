/**
 * The address policy for outbound connections to addresses the adapter learned from a remote
 * document (docs/security.md, "Outbound addresses"): an endpoint's well-known document lists
 * relays, and without a check a hostile document makes the adapter dial cloud metadata services
 * (169.254.169.254), private networks or its own loopback services. Refused unless an allow-list
 * entry covers them: unspecified, loopback, private (RFC 1918, unique-local), shared (CGNAT),
 * link-local (with the metadata addresses), multicast, reserved and documentation ranges, and
 * every IPv6 address that embeds an IPv4 one (IPv4-mapped and -compatible, NAT64, 6to4, Teredo),
 * whatever it embeds — a public server has no reason to be named that way.
 *
 * A host name is checked after resolution: {@link AddressPolicy.lookup} resolves it, checks every
 * address and hands the connection only checked addresses, so the address dialled is the address
 * checked (a DNS answer that changes between check and connect cannot slip through). IPv4 written
 * in decimal, octal or hex (`2130706433`, `0177.0.0.1`, `0x7f.1`) is normalized by the URL parser
 * before the check; `localhost` and `*.localhost` are loopback by name.
 * @module
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** Why an address is refused (`public` is never refused). */
export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'embedded-ipv4';

/** A policy decision about one address or URL. */
export type AddressDecision =
  | { ok: true; address: string; category: AddressCategory }
  | { ok: false; address: string; category: AddressCategory; reason: string };

/** Options of {@link AddressPolicy}. */
export interface AddressPolicyOptions {
  /** CIDR ranges (or single addresses) allowed although special, e.g. `10.0.0.0/8`, `::1/128`. */
  allow?: readonly string[];
  /** Resolves a host name to every address (default: the system resolver, `dns.lookup`). */
  resolve?: (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;
}

/** A CIDR range: its network bytes (4 or 16) and prefix length. */
export interface CidrRange {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}
type _Range = CidrRange;
type _Special = { range: _Range; category: AddressCategory; name: string };

/** A lookup function with the signature `net.connect`, `http.request` and `ws` accept. */
export type PolicyLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string } | number,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Decides which addresses learned from remote documents may be dialled. */
export class AddressPolicy {
  readonly #allow: _Range[];
  readonly #resolve: NonNullable<AddressPolicyOptions['resolve']>;

  /** Throws a `TypeError` naming an allow entry that is not a CIDR range or an address. */
  constructor(options: AddressPolicyOptions = {}) {
    this.#allow = (options.allow ?? []).map((entry) => {
      const range = parseCidr(entry);
      if (!range)
        throw new TypeError(
          `expected a CIDR range such as 10.0.0.0/8 or fd00::/8, got ${JSON.stringify(entry)}`,
        );
      return range;
    });
    this.#resolve = options.resolve ?? _systemResolve;
  }

  /** Checks one IP address (IPv4 or IPv6, an IPv6 zone is ignored). */
  check(address: string): AddressDecision {
    const bytes = _parseIp(address);
    if (!bytes) {
      return { ok: false, address, category: 'reserved', reason: `${address} is not an IP address` };
    }
    const special = _classify(bytes);
    if (!special) return { ok: true, address, category: 'public' };
    if (this.#allow.some((range) => _inRange(bytes, range))) {
      return { ok: true, address, category: special.category };
    }
    return {
      ok: false,
      address,
      category: special.category,
      reason: `${address} is ${special.name}; such addresses are refused for hosts learned from remote documents unless network.allow_private covers them`,
    };
  }

  /**
   * Checks the host of `url` when it is an IP literal (after the URL parser normalized it) or
   * `localhost`; a host name passes here and is checked after resolution by {@link lookup}.
   */
  checkUrl(url: string): AddressDecision {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return { ok: false, address: url, category: 'reserved', reason: `${JSON.stringify(url)} is not a URL` };
    }
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    if (isIP(bare) !== 0) return this.check(bare);
    if (bare === 'localhost' || bare.endsWith('.localhost')) {
      // Loopback by name (RFC 6761): decided without asking DNS.
      const decision = this.check('127.0.0.1');
      return decision.ok
        ? { ...decision, address: bare }
        : { ...decision, address: bare, reason: decision.reason.replace('127.0.0.1', bare) };
    }
    return { ok: true, address: bare, category: 'public' };
  }

  /**
   * A `lookup` for `net.connect`, `http.request`, `https.request` and `ws`: resolves the name,
   * checks every address, and fails with `EADDRNOTALLOWED` naming the first refused one.
   */
  readonly lookup: PolicyLookup = (hostname, options, callback) => {
    const opts = typeof options === 'number' ? { family: options } : options;
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    const named = this.checkUrl(`http://${hostname.includes(':') ? `[${hostname}]` : hostname}/`);
    if (!named.ok) {
      callback(_refused(hostname, named), '');
      return;
    }
    this.#resolve(hostname, family === 4 || family === 6 ? family : 0).then(
      (addresses) => {
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        for (const { address } of addresses) {
          const decision = this.check(address);
          if (!decision.ok) {
            callback(_refused(hostname, decision), '');
            return;
          }
        }
        if (opts.all) callback(null, addresses);
        else {
          const first = addresses[0] as LookupAddress;
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

function _systemResolve(hostname: string, family: 0 | 4 | 6): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );
}

function _refused(hostname: string, decision: AddressDecision & { ok: false }): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    decision.address === hostname ? decision.reason : `${hostname} resolves to ${decision.reason}`,
  );
  error.code = 'EADDRNOTALLOWED';
  return error;
}

/** Parses `a.b.c.d/n`, `x:y::z/n` or a single address (a /32 or /128). */
export function parseCidr(text: string): CidrRange | undefined {
  const [address, prefixText, extra] = text.trim().split('/');
  if (address === undefined || extra !== undefined) return undefined;
  const bytes = _parseIp(address);
  if (!bytes) return undefined;
  const bits = bytes.length * 8;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  if (prefix < 0 || prefix > bits) return undefined;
  return { family: bytes.length === 4 ? 4 : 6, bytes, prefix };
}

/** 4 or 16 bytes, or undefined. A zone (`%eth0`) is dropped. */
function _parseIp(text: string): Uint8Array | undefined {
  const address = text.replace(/%.*$/, '');
  const kind = isIP(address);
  if (kind === 4) return Uint8Array.from(address.split('.').map(Number));
  if (kind !== 6) return undefined;
  let head = address;
  const tailV4: number[] = [];
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4?.[1]) {
    tailV4.push(...v4[1].split('.').map(Number));
    head = `${address.slice(0, v4.index)}:0:0`;
  }
  const [left = '', right] = head.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const all = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tailV4.length === 4) bytes.set(tailV4, 12);
  return bytes;
}

function _inRange(bytes: Uint8Array, range: _Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] as number) & mask) !== ((range.bytes[i] as number) & mask)) return false;
  }
  return true;
}

const _SPECIAL: _Special[] = (
  [
    ['0.0.0.0/8', 'unspecified', 'an unspecified ("this network") address'],
    ['10.0.0.0/8', 'private', 'a private address (RFC 1918)'],
    ['100.64.0.0/10', 'shared', 'a shared carrier-grade NAT address (RFC 6598)'],
    ['127.0.0.0/8', 'loopback', 'a loopback address'],
    ['169.254.169.254/32', 'link-local', 'a cloud metadata address (link-local)'],
    ['169.254.0.0/16', 'link-local', 'a link-local address'],
    ['172.16.0.0/12', 'private', 'a private address (RFC 1918)'],
    ['192.0.0.0/24', 'reserved', 'an IETF protocol assignment address'],
    ['192.0.2.0/24', 'documentation', 'a documentation address'],
    ['192.168.0.0/16', 'private', 'a private address (RFC 1918)'],
    ['198.18.0.0/15', 'reserved', 'a benchmarking address'],
    ['198.51.100.0/24', 'documentation', 'a documentation address'],
    ['203.0.113.0/24', 'documentation', 'a documentation address'],
    ['224.0.0.0/4', 'multicast', 'a multicast address'],
    ['240.0.0.0/4', 'reserved', 'a reserved or broadcast address'],
    ['::/128', 'unspecified', 'the unspecified address'],
    ['::1/128', 'loopback', 'the loopback address'],
    ['::ffff:0:0/96', 'embedded-ipv4', 'an IPv4-mapped address'],
    ['::/96', 'embedded-ipv4', 'an IPv4-compatible address'],
    ['64:ff9b::/96', 'embedded-ipv4', 'a NAT64 address embedding IPv4'],
    ['64:ff9b:1::/48', 'embedded-ipv4', 'a local NAT64 address embedding IPv4'],
    ['2002::/16', 'embedded-ipv4', 'a 6to4 address embedding IPv4'],
    ['2001::/32', 'embedded-ipv4', 'a Teredo address embedding IPv4'],
    ['100::/64', 'reserved', 'a discard-only address'],
    ['2001:db8::/32', 'documentation', 'a documentation address'],
    ['fc00::/7', 'private', 'a unique-local (private) address'],
    ['fe80::/10', 'link-local', 'a link-local address'],
    ['fec0::/10', 'private', 'a site-local address'],
    ['ff00::/8', 'multicast', 'a multicast address'],
  ] as const
).map(([cidr, category, name]) => ({ range: parseCidr(cidr) as _Range, category, name }));

/** The first special range holding `bytes` (the most specific is listed first), or undefined. */
function _classify(bytes: Uint8Array): { category: AddressCategory; name: string } | undefined {
  const found = _SPECIAL.find((s) => _inRange(bytes, s.range));
  if (!found) return undefined;
  const embedded = found.category === 'embedded-ipv4' ? _embeddedIpv4(bytes, found.range) : undefined;
  return embedded ? { category: found.category, name: `${found.name} ${embedded}` } : found;
}

/** The IPv4 address an embedding IPv6 address carries, written out for messages. */
function _embeddedIpv4(bytes: Uint8Array, range: _Range): string | undefined {
  const six = range.bytes;
  // 6to4 keeps it in bytes 2–5, Teredo (obfuscated, bit-inverted) in bytes 12–15; the rest in 12–15.
  if (six[0] === 0x20 && six[1] === 0x02) return [...bytes.subarray(2, 6)].join('.');
  if (six[0] === 0x20 && six[1] === 0x01) return [...bytes.subarray(12, 16)].map((b) => b ^ 0xff).join('.');
  return [...bytes.subarray(12, 16)].join('.');
}
