/**
 * The logging seam: the bridge reports through this small interface (pino's shape), so the
 * adapter decides where logs go and the bridge never writes to stdout.
 * @module
 */

/** A structured logger: an object of fields, then a message. */
export interface BridgeLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything (the default in tests and libraries). */
export const silentLogger: BridgeLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
