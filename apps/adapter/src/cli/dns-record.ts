/**
 * `xprotocol-adapter dns-record (--config FILE | --key FILE) [--domain DOMAIN] [--json]`: prints
 * the DNS TXT record that publishes the adapter's key at `_xprotocol.<domain>` (docs/protocol.md
 * §10.3, "Keys in DNS TXT"), without starting anything and without talking to DNS. With `--config`, the key is
 * `identity.key_file` and the domain `discovery.dns_name` unless `--domain` is given.
 *
 * Output (docs/cli.md): one zone-file line, `_xprotocol.<domain>. IN TXT "v=xp1; k=…"`, or with
 * `--json` `{"name","type","value"}`; a missing or unreadable key file exits 1, usage errors 2.
 * @module
 */
import { existsSync } from 'node:fs';
import { CryptoError } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { dnsRecordName, formatDnsRecord } from '@xprotocol/mcp-bridge';
import { dnsName } from '../config/dns-values.js';
import { CliError, type CliIo, EXIT, usageError } from './cli-shape.js';
import { readConfig } from './config-commands.js';
import { expandHome } from './paths.js';

/** Options of {@link dnsRecord}. */
export interface DnsRecordOptions {
  config?: string;
  key?: string;
  domain?: string;
  json?: boolean;
}

/** Prints the record; throws a `CliError` saying what is missing or wrong. */
export async function dnsRecord(options: DnsRecordOptions, io: CliIo): Promise<void> {
  if ((options.config === undefined) === (options.key === undefined))
    throw usageError('give either --config <file> or --key <file> (with --domain)');
  const config = options.config === undefined ? undefined : readConfig(options.config, io).config;
  const domain = options.domain ?? config?.discovery.dnsName;
  if (domain === undefined) {
    throw usageError(
      options.config === undefined
        ? '--domain: missing, expected the domain callers reach the endpoint by (acme.example)'
        : `--domain: missing, and ${options.config} has no discovery.dns_name`,
    );
  }
  if (!dnsName().safeParse(domain).success)
    throw usageError(
      `--domain: expected a domain name with at least two labels (acme.example), not localhost, got ${JSON.stringify(domain)}`,
    );
  const keyFile = options.key === undefined ? config?.identity.keyFile : expandHome(options.key);
  if (keyFile === undefined) throw usageError(`${options.config} has no identity.key_file`);
  if (!existsSync(keyFile))
    throw new CliError(
      `${keyFile}: no such key file; create it with xprotocol-adapter keygen --output ${keyFile} (or start the adapter once)`,
      EXIT.failure,
    );
  let ed25519: string;
  try {
    ed25519 = (await readKeyFile(keyFile, { signatures: nodeSignatures, cipher: nodeCipher })).keys.ed25519;
  } catch (error) {
    if (error instanceof CryptoError) throw new CliError(error.message, EXIT.failure, { cause: error });
    throw error;
  }
  const name = dnsRecordName(domain);
  const value = formatDnsRecord(ed25519);
  io.out(options.json ? `${JSON.stringify({ name, type: 'TXT', value })}\n` : `${name}. IN TXT "${value}"\n`);
}
