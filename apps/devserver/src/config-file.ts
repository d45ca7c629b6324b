/**
 * How the devserver reads a `--config` file, at start and at each reload: with the adapter's own
 * loader, and with the two sections the devserver replaces anyway — `identity` (its dev key) and
 * `relay` (its local relay) — supplied when the file has none, so a file written for the devserver
 * needs neither (docs/devserver.md, "Modes").
 * @module
 */
import { type LoadedConfig, loadConfig } from '@xprotocol/mcp-adapter';
import { DEFAULT_RELAY_PORT, localRelayUrl } from './paths.js';

/**
 * Loads `path`; `keyFile` is the key the devserver runs the adapter with. Throws the adapter's
 * `ConfigError` like `loadConfig`.
 */
export function _loadConfigFile(path: string, keyFile: string): LoadedConfig {
  return loadConfig(path, {
    sections: {
      identity: { key_file: keyFile },
      // Replaced by the running relay's URL when the adapter starts.
      relay: { urls: [localRelayUrl(DEFAULT_RELAY_PORT)] },
    },
  });
}
