/** Shared helpers of the config-*.test.ts files. */
import { ConfigError, type LoadConfigOptions, type LoadedConfig, parseConfig } from '../src/config/index.js';

/** A well-formed Ed25519 key string (not a real identity: the bytes are a counter). */
export const KEY_A = `ed25519:${'0a'.repeat(32)}`;
export const KEY_B = `ed25519:${'0b'.repeat(32)}`;

export const OPTIONS: LoadConfigOptions = { env: {}, homeDir: '/home/ada' };

/** Parses `text` as `config.yml`; fails the test when it is refused. */
export function load(text: string, options: LoadConfigOptions = OPTIONS): LoadedConfig {
  return parseConfig(text, 'config.yml', options);
}

/** The error `text` is refused with; fails the test when it loads. */
export function refusal(text: string, options: LoadConfigOptions = OPTIONS): ConfigError {
  try {
    parseConfig(text, 'config.yml', options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the configuration to be refused, but it loaded');
}

/** The message lines `text` is refused with. */
export function problems(text: string, options: LoadConfigOptions = OPTIONS): string[] {
  return refusal(text, options).message.split('\n');
}

/** Joins YAML lines (keeps tests readable without template-literal indentation). */
export function yaml(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

/** A valid file wrapping one stdio server; `extra` lines are appended at the top level. */
export function base(...extra: string[]): string {
  return yaml(
    'identity:',
    '  key_file: ./adapter.key',
    'relay:',
    '  urls: [ws://127.0.0.1:8765]',
    'access:',
    '  grants:',
    `    - key: ${KEY_A}`,
    '      capabilities: [com.test.fs.read]',
    'mcp_sources:',
    '  - name: fs',
    '    transport: stdio',
    '    command: npx -y @modelcontextprotocol/server-filesystem /tmp',
    '    xprotocol_namespace: com.test.fs',
    ...extra,
  );
}
