/**
 * What the `xprotocol-devserver` command line hands its modes: the parsed flags and where to write.
 * Its own module, so the program (`cli.ts`) and the modes (`cli-modes.ts`) both depend on it and
 * never on each other.
 * @module
 */
import type { CliIo } from '@xprotocol/mcp-adapter';
import type { Style } from './style.js';

/** Where the CLI writes, and what stops a long-running mode. */
export interface DevserverCliContext extends CliIo {
  /** Decorations for stderr. Default: colour when stderr is a TTY and `NO_COLOR` is unset. */
  style?: Style;
  /** What `~` is (default `os.homedir()`). */
  home?: string;
  /** Resolves when a serving mode should stop. Default: the first SIGINT or SIGTERM. */
  stopped?: () => Promise<string>;
  /**
   * The command that runs this devserver again, for the MCP client snippets. Default: this Node
   * and this bin's script, both absolute (see `selfCommand`).
   */
  self?: { command: string; args: string[] };
}

/** The options the command line accepts. */
export interface _Flags {
  config?: string;
  mcpCommand?: string;
  namespace?: string;
  demo?: boolean;
  mcpProxy?: boolean;
  relayPort?: number;
  db?: string;
  key?: string;
  watch: boolean;
  consolePort?: number;
  console: boolean;
}

/**
 * The modes; exactly one per run. `demo-server` is what no mode flag gives: the demo's
 * server-filesystem, served until Ctrl-C, with the web console.
 */
export type _Mode = 'config' | 'mcp-command' | 'demo' | 'mcp-proxy' | 'demo-server';
