/**
 * Small readers of adapter answers shared by the checks.
 * @module
 */

import { show } from '../check.js';
import type { Exchange } from '../xp-client.js';
import { describeEvent } from '../xp-client.js';

/** The `xp.error` code of an exchange's answer, if it was an `xp.error`. */
export function errorCode(exchange: Exchange): string | undefined {
  if (exchange.answer?.kind !== 'xp.error') return undefined;
  const code = (exchange.payload as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What came back, for a failure message. */
export function received(exchange: Exchange): string {
  if (!exchange.answer) return 'no answer';
  const opened = exchange.openError
    ? ` (cannot open it: ${exchange.openError})`
    : ` carrying ${show(exchange.payload)}`;
  return `${describeEvent(exchange.answer)}${opened}${exchange.answers.length > 1 ? `, and ${exchange.answers.length - 1} more answers` : ''}`;
}

/** A unique marker to put in call arguments, so the test server's record shows whether it arrived. */
export function marker(label: string): string {
  return `conf-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The part of a kind after the namespace (`conf.test.read_note` → `read_note`). */
export function toolOf(kind: unknown): string {
  return typeof kind === 'string' ? kind.slice(kind.lastIndexOf('.') + 1) : '';
}
