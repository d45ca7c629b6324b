// The target the independent client of test/independent/ talks to: the real relay bin and a real
// adapter bin on it, configured by the test; the client connects and reads the adapter's announce
// as a caller does (docs/protocol.md §10.3). Only processes are started here: every protocol step
// stays the independent code's.
import type { AnnouncePayload } from '../independent/announce.mjs';
import type { Identity } from '../independent/sealed-event.mjs';
import { StrictClient } from '../independent/strict-client.mjs';
import type { Processes } from './processes.js';

/** What a test gets: the relay, the adapter's keys as its announce gives them, a connected client. */
export interface IndependentTarget {
  relayUrl: string;
  endpoint: { ed25519: string; x25519: string };
  announce: AnnouncePayload;
  client: StrictClient;
}

/**
 * Starts a relay and an adapter whose config is `identity` (with `./adapter.key`), the relay, then
 * `sections` (sources, access, discovery… as YAML), a state file and JSON logs at info; connects
 * `me` and reads the announce, asked again until a relay holds it (the adapter reports ready
 * before its first announce is surely stored).
 */
export async function startIndependentTarget(
  procs: Processes,
  me: Identity,
  sections: string,
  options: { displayName?: string } = {},
): Promise<IndependentTarget> {
  const { url: relayUrl } = await procs.relay();
  const adapterKey = await procs.keygen('adapter.key');
  const displayName = options.displayName === undefined ? '' : `\n  display_name: "${options.displayName}"`;
  const config = procs.file(
    'adapter.yml',
    `identity:
  key_file: ./adapter.key${displayName}
relay:
  urls: [${relayUrl}]
${sections.trim()}
state_database: ./state.db
logging:
  level: info
  format: json
`,
  );
  await procs.adapter(config);
  const client = await StrictClient.connect(relayUrl, me);
  const { event, payload } = await client.announceOf(adapterKey.ed25519);
  return { relayUrl, endpoint: { ed25519: event.pubkey, x25519: payload.x25519 }, announce: payload, client };
}
