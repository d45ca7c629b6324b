/**
 * The adapter configuration the suite needs (docs/config.md): the suite's test MCP server twice
 * (once rate-limited), the suite's peer endpoint as an XProtocol source, an HTTP MCP face, and a
 * grant for the suite's client key; with `delegation`, the optional delegated-identity settings
 * (docs/config.md `identity.parent_delegation_event`, `access.trusted_issuers`).
 * `--print-config` prints it for someone who runs the adapter.
 * @module
 */
import { stringify } from 'yaml';
import { PEER_PREFIX } from './peer-endpoint.js';
import { RATE_NAMESPACE, TEST_NAMESPACE, TEST_TOOLS } from './test-tools.js';

/** What goes into the configuration. */
export interface SuiteConfigInput {
  keyFile: string;
  /** Every relay the adapter must use: the real relay and the suite's injector relay. */
  relays: readonly string[];
  /** The test MCP server's command line (argv). */
  testServer: readonly string[];
  /** The file the test server records calls in. */
  callsFile: string;
  clientKey: string;
  peerKey: string;
  peerRelay: string;
  mcpPort: number;
  stateDatabase: string;
  displayName?: string;
  /** The optional delegated identity: the adapter's chain file, and the root it trusts for callers. */
  delegation?: { chainFile?: string | undefined; parentKey?: string | undefined; trustedIssuer: string };
}

/** What the suite's root is granted, so callers under its chains may read (docs/protocol.md §11.7, step 5). */
export const ISSUER_CAPABILITIES = [`${TEST_NAMESPACE}.read`] as const;

/** The configuration as a YAML document. */
export function suiteConfig(input: SuiteConfigInput): string {
  const command = [...input.testServer, '--calls', input.callsFile];
  const overrides = Object.fromEntries(
    TEST_TOOLS.map((tool) => [tool.name, { required_capability: tool.capability }]),
  );
  const document = {
    identity: {
      key_file: input.keyFile,
      display_name: input.displayName ?? 'Conformance target',
      ...(input.delegation?.chainFile
        ? { parent_delegation_event: input.delegation.chainFile, parent_key: input.delegation.parentKey }
        : {}),
    },
    relay: { urls: [...input.relays] },
    mcp_sources: [
      {
        name: 'conf-test',
        transport: 'stdio',
        command,
        xprotocol_namespace: TEST_NAMESPACE,
        schema_overrides: overrides,
      },
      {
        name: 'conf-rate',
        transport: 'stdio',
        command: [...command],
        xprotocol_namespace: RATE_NAMESPACE,
        tool_allowlist: ['read_note'],
        rate_limit: { requests_per_minute: 1 },
        schema_overrides: { read_note: { required_capability: `${RATE_NAMESPACE}.read` } },
      },
    ],
    xprotocol_sources: [
      { name: 'conf-peer', key: input.peerKey, relay: input.peerRelay, mcp_tool_prefix: PEER_PREFIX },
    ],
    mcp_server: { transport: 'streamable_http', host: '127.0.0.1', port: input.mcpPort, path: '/mcp' },
    access: {
      default: 'deny',
      grants: [
        {
          key: input.clientKey,
          // The prompt and resource-template contracts need what prompts/get and resources/read
          // need over xp.mcp.request (docs/protocol.md §10.11).
          capabilities: [
            `${TEST_NAMESPACE}.read`,
            `${RATE_NAMESPACE}.read`,
            `${TEST_NAMESPACE}.mcp.prompts.get`,
            `${TEST_NAMESPACE}.mcp.resources.read`,
          ],
        },
        ...(input.delegation
          ? [{ key: input.delegation.trustedIssuer, capabilities: [...ISSUER_CAPABILITIES] }]
          : []),
      ],
      ...(input.delegation ? { trusted_issuers: [input.delegation.trustedIssuer] } : {}),
    },
    state_database: input.stateDatabase,
    logging: { level: 'info', format: 'json' },
  };
  return stringify(document, { lineWidth: 0 });
}
