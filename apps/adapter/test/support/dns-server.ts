/**
 * A small, strict DNS server for tests, written from RFC 1035 (§4.1 message format, §3.3.14 TXT,
 * §3.4.1 A) and RFC 3596 (AAAA): UDP on 127.0.0.1, one question per query, authoritative answers
 * for the names it is given, NXDOMAIN for any other name, NODATA for a known name without records
 * of the type asked, SERVFAIL for names configured to fail. It shares no code with node:dns, so
 * the adapter's resolver is proven against the wire format itself. A malformed query gets FORMERR.
 * @module
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';

/** What the server answers for one name (lowercase, no trailing dot). */
interface DnsZoneEntry {
  /** TXT records, each the text of one record (split into 255-byte character-strings). */
  txt?: string[];
  /** IPv4 addresses (A records). */
  a?: string[];
  /** IPv6 addresses (AAAA records). */
  aaaa?: string[];
  /** Answer SERVFAIL to every query for this name. */
  servfail?: boolean;
}

const TYPE = { A: 1, TXT: 16, AAAA: 28 } as const;
const CLASS_IN = 1;
const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, notImp: 4 } as const;

/** A running test DNS server; `zone` may be changed between queries. */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as `discovery.dns_servers` takes it. */
  readonly address: string;
  readonly zone: Map<string, DnsZoneEntry>;
  /** Every question asked, `name TYPE`, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

/** Starts the server on an ephemeral UDP port of 127.0.0.1. */
export async function startDnsServer(zone: Record<string, DnsZoneEntry>): Promise<TestDnsServer> {
  const entries = new Map(Object.entries(zone).map(([name, entry]) => [name.toLowerCase(), entry]));
  const asked: string[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const reply = answer(query, entries, asked);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    zone: entries,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** The reply to one query, or `undefined` for a message too short to carry an ID (dropped). */
function answer(query: Buffer, zone: Map<string, DnsZoneEntry>, asked: string[]): Buffer | undefined {
  if (query.length < 12) return undefined;
  const id = query.readUInt16BE(0);
  const flags = query.readUInt16BE(2);
  const isResponse = (flags & 0x8000) !== 0;
  const opcode = (flags >> 11) & 0x0f;
  const recursionDesired = (flags & 0x0100) !== 0;
  const questions = query.readUInt16BE(4);
  const header = (rcode: number, answers: number, withQuestion: boolean) => {
    const out = Buffer.alloc(12);
    out.writeUInt16BE(id, 0);
    // QR=1, opcode 0, AA=1, RD copied, RA=0, RCODE.
    out.writeUInt16BE(0x8000 | 0x0400 | (recursionDesired ? 0x0100 : 0) | rcode, 2);
    out.writeUInt16BE(withQuestion ? 1 : 0, 4);
    out.writeUInt16BE(answers, 6);
    return out;
  };
  if (isResponse || questions !== 1) return header(RCODE.formErr, 0, false);
  if (opcode !== 0) return header(RCODE.notImp, 0, false);
  const parsed = readQuestion(query, 12);
  if (!parsed) return header(RCODE.formErr, 0, false);
  const { name, type, klass, end } = parsed;
  const question = query.subarray(12, end);
  asked.push(`${name} ${Object.entries(TYPE).find(([, v]) => v === type)?.[0] ?? type}`);
  const entry = zone.get(name);
  if (!entry) return Buffer.concat([header(RCODE.nxDomain, 0, true), question]);
  if (entry.servfail) return Buffer.concat([header(RCODE.servFail, 0, true), question]);
  const records = klass === CLASS_IN ? recordsOf(entry, type) : [];
  return Buffer.concat([
    header(RCODE.noError, records.length, true),
    question,
    ...records.map((r) => rr(type, r)),
  ]);
}

/**
 * The question at `offset`: its name (labels, no compression: a query's first name has nothing
 * to point back to), type and class; `undefined` when malformed.
 */
function readQuestion(
  message: Buffer,
  offset: number,
): { name: string; type: number; klass: number; end: number } | undefined {
  const labels: string[] = [];
  let at = offset;
  let length = 0;
  for (;;) {
    if (at >= message.length) return undefined;
    const size = message[at] as number;
    if (size === 0) break;
    // 0xC0: a compression pointer; 0x40/0x80: reserved label types (RFC 1035 §4.1.4).
    if ((size & 0xc0) !== 0 || at + 1 + size > message.length) return undefined;
    labels.push(
      message
        .subarray(at + 1, at + 1 + size)
        .toString('latin1')
        .toLowerCase(),
    );
    length += size + 1;
    if (length > 255) return undefined;
    at += 1 + size;
  }
  at += 1;
  if (at + 4 > message.length) return undefined;
  return {
    name: labels.join('.'),
    type: message.readUInt16BE(at),
    klass: message.readUInt16BE(at + 2),
    end: at + 4,
  };
}

/** The RDATA of each record of `type` the entry holds. */
function recordsOf(entry: DnsZoneEntry, type: number): Buffer[] {
  if (type === TYPE.TXT) return (entry.txt ?? []).map(txtRdata);
  if (type === TYPE.A)
    return (entry.a ?? []).filter((a) => isIPv4(a)).map((a) => Buffer.from(a.split('.').map(Number)));
  if (type === TYPE.AAAA) return (entry.aaaa ?? []).filter((a) => isIPv6(a)).map(ipv6Bytes);
  return [];
}

/** TXT RDATA: the text as length-prefixed character-strings of at most 255 bytes. */
function txtRdata(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [
    ...groups(head),
    ...Array<string>(address.includes('::') ? missing : 0).fill('0'),
    ...groups(tail),
  ];
  const out = Buffer.alloc(16);
  for (const [i, group] of all.entries()) out.writeUInt16BE(Number.parseInt(group, 16), i * 2);
  return out;
}

/** One answer record: the name as a pointer to the question's (offset 12), TTL 60. */
function rr(type: number, rdata: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc000 | 12, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(CLASS_IN, 4);
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([head, rdata]);
}
