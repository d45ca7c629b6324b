/**
 * A tap on the adapter's logger: every record the adapter logs is also handed to a listener,
 * whatever the logger's level (the console learns why a call was refused from the record the
 * endpoint logs before it seals the `xp.error`, which the relay can never read).
 * @module
 */
import type { AdapterLogger } from '@xprotocol/mcp-adapter';

/** The levels the adapter and the bridge log at. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One record the adapter logged. */
export interface AdapterLogRecord {
  level: LogLevel;
  fields: Record<string, unknown>;
  message: string;
}

const _LEVELS = new Set<string | symbol>(['debug', 'info', 'warn', 'error']);

/**
 * Returns `logger` with `listener` called before each `debug`/`info`/`warn`/`error` call that
 * passes a fields object and a message (the bridge's shape). Everything else is the logger's own.
 */
export function tapAdapterLogger(
  logger: AdapterLogger,
  listener: (record: AdapterLogRecord) => void,
): AdapterLogger {
  return new Proxy(logger, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (!_LEVELS.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        const [fields, message] = args;
        if (fields !== null && typeof fields === 'object' && typeof message === 'string') {
          try {
            listener({ level: property as LogLevel, fields: fields as Record<string, unknown>, message });
          } catch {
            // A listener's failure must never break the adapter's logging.
          }
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
