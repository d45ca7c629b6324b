/**
 * Leaf schemas of the DNS keys of `discovery` (docs/config.md): a domain name callers reach the
 * adapter by, and a DNS server address as node:dns `Resolver#setServers` takes it.
 * @module
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { phrased } from './_phrased.js';

const DNS_NAME =
  /^(?=.{1,253}\.?$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]\.?$/;
const DNS_NAME_PHRASE = 'a domain name with at least two labels (acme.example), no scheme, no port';

/** A domain name that can hold a TXT record: at least two labels, not an IP address, not localhost. */
export const dnsName = () =>
  phrased(
    z
      .string()
      .regex(DNS_NAME)
      .refine((s) => !/(^|\.)localhost\.?$/i.test(s), {
        error: `expected ${DNS_NAME_PHRASE}, not localhost`,
      }),
    DNS_NAME_PHRASE,
  );

/** How a DNS server is written. */
export const DNS_SERVER_PHRASE =
  'an IP address with an optional port (192.0.2.53, 127.0.0.1:53535, [::1]:53)';

/** A DNS server: an IP address, `v4:port` or `[v6]:port`. */
export const dnsServer = () =>
  phrased(
    z.string().refine((s) => _isDnsServer(s), { error: `expected ${DNS_SERVER_PHRASE}` }),
    DNS_SERVER_PHRASE,
  );

function _isDnsServer(text: string): boolean {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text);
  const match = bracketed ?? v4;
  if (!match) return isIP(text) === 6;
  const portOk = match[2] === undefined || (Number(match[2]) >= 1 && Number(match[2]) <= 65535);
  return portOk && isIP(match[1] as string) === (bracketed ? 6 : 4);
}
