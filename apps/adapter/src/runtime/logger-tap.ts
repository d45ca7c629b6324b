/**
 * A tap on the adapter's logger for its status (status-snapshot.ts): every warning and error any
 * part logs is also handed to a listener, whatever the logger's level lets through, and the
 * logger itself writes and filters as it always did. The other methods are the logger's own,
 * bound once per method pino has in place (it swaps them when its level changes), so a log call
 * at info or debug costs a map lookup more.
 * @module
 */
import type { AdapterLogger } from './logger.js';

/** Hears one warning or error: the record's fields and message as the caller logged them. */
export type ProblemListener = (
  level: 'warn' | 'error',
  fields: Record<string, unknown>,
  message: string,
) => void;

/**
 * `logger` with `listener` called before each `warn` and `error` call that passes a fields object
 * and a message (the bridge's shape). A listener that throws never breaks the logging.
 */
export function tapProblems(logger: AdapterLogger, listener: ProblemListener): AdapterLogger {
  const bound = new Map<string | symbol, { of: unknown; method: unknown }>();
  return new Proxy(logger, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const cached = bound.get(property);
      if (cached?.of === value) return cached.method;
      const method =
        property === 'warn' || property === 'error'
          ? _tapped(target, value as (...args: unknown[]) => unknown, property, listener)
          : value.bind(target);
      bound.set(property, { of: value, method });
      return method;
    },
  });
}

/** `method` of `target`, telling `listener` first. */
function _tapped(
  target: AdapterLogger,
  method: (...args: unknown[]) => unknown,
  level: 'warn' | 'error',
  listener: ProblemListener,
): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    const [fields, message] = args;
    if (fields !== null && typeof fields === 'object' && typeof message === 'string') {
      try {
        listener(level, fields as Record<string, unknown>, message);
      } catch {
        // The status must never break the adapter's logging.
      }
    }
    return method.apply(target, args);
  };
}
