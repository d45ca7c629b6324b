/**
 * The adapter's version, recorded in every contract's `source.adapter_version` and the announce.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** The published version of `@xprotocol/mcp-adapter`. */
export const ADAPTER_VERSION: string = manifest.version;
