/**
 * `login <source> --config FILE`: a user authorizes the adapter once at the authorization server of
 * an `mcp_sources` entry with `auth.type: oauth` and `grant: authorization_code` (docs/cli.md,
 * docs/security.md, "OAuth to upstream servers"). The authorization URL is printed on stdout, never
 * opened through a shell; the browser's redirect comes back to a listener on 127.0.0.1; the grant
 * is stored sealed in the state database, where a running adapter finds it at the source's next
 * 401 and a starting one at once.
 * @module
 */
import { nodeCipher, nodeSignatures, readKeyFile } from '@xprotocol/crypto/node';
import { loginToUpstream } from '@xprotocol/mcp-bridge';
import { AddressPolicy } from '@xprotocol/relay-client';
import { _adapterDns } from '../runtime/dns-resolver.js';
import { openStateDatabase } from '../runtime/state-path.js';
import { upstreamGrantStore } from '../runtime/upstream-oauth.js';
import { CliError, type CliIo } from './cli-shape.js';
import { readConfig } from './config-commands.js';
import { stateStemOf } from './state-stem.js';

/** The address policy the running adapter would use (its allow-list, its DNS servers). */
function _loginPolicy(config: ReturnType<typeof readConfig>['config']): AddressPolicy {
  const dns = _adapterDns(config);
  return new AddressPolicy({
    allow: config.network.allowPrivate,
    ...(dns.resolveAddresses && { resolve: dns.resolveAddresses }),
  });
}

/** Runs the command: the URL on stdout, the outcome on stderr. */
export async function login(source: string, options: { config: string }, io: CliIo): Promise<void> {
  const { config } = readConfig(options.config, io);
  const entry = config.mcpSources.find((s) => s.name === source);
  if (!entry)
    throw new CliError(
      `no mcp_sources entry named ${JSON.stringify(source)} in ${config.file}; have ${config.mcpSources.map((s) => s.name).join(', ') || 'none'}`,
    );
  if (!entry.oauth || entry.url === undefined)
    throw new CliError(`mcp_sources ${source} does not use OAuth: login needs auth.type: oauth`);
  if (entry.oauth.grant !== 'authorization_code')
    throw new CliError(
      `mcp_sources ${source} uses grant ${entry.oauth.grant}: the adapter gets its tokens itself, login is for grant authorization_code`,
    );
  const { keyFile } = config.identity;
  if (keyFile === undefined)
    throw new CliError(
      'login needs identity.key_file: the stored tokens are sealed with a key derived from it',
    );
  const identity = await readKeyFile(keyFile, { signatures: nodeSignatures, cipher: nodeCipher });
  const state = openStateDatabase(config.stateDatabase, await stateStemOf(config));
  try {
    const grant = await loginToUpstream({
      rules: {
        source,
        serverUrl: entry.url,
        allowInsecureLoopback: entry.oauth.allowInsecureLoopback,
        addressPolicy: _loginPolicy(config),
      },
      ...(entry.oauth.clientId !== undefined && {
        client: {
          clientId: entry.oauth.clientId,
          ...(entry.oauth.clientSecret !== undefined && { clientSecret: entry.oauth.clientSecret }),
        },
      }),
      ...(entry.oauth.scope !== undefined && { scope: entry.oauth.scope }),
      ...(entry.oauth.clientMetadataUrl !== undefined && {
        clientMetadataUrl: entry.oauth.clientMetadataUrl,
      }),
      store: upstreamGrantStore(state, identity.x25519.secretKey),
      print: (text) => io.out(text),
    });
    io.err(
      `authorized ${source} at ${grant.issuer}${grant.tokens.refreshToken ? ' (with a refresh token)' : ' (no refresh token: run login again when the token expires)'}; the tokens are stored in ${state.path}\n`,
    );
  } catch (error) {
    throw new CliError((error as Error).message);
  } finally {
    await state.close();
  }
}
