// The types of xp-error.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Reads an `xp.error` payload by the rules of §10.2.
 *
 * @param {unknown} payload
 * @returns {{ code: string, message: string, retry_after?: number, details?: Record<string, unknown> }}
 */
export function readXpError(payload: unknown): {
  code: string;
  message: string;
  retry_after?: number;
  details?: Record<string, unknown>;
};
/**
 * What an MCP face gives its client for an `xp.error` answering a tool call (`toolCall`) or any
 * other MCP request (§10.2): `{error}` (a JSON-RPC error) or `{result}` (a tool result).
 *
 * @param {unknown} payload @param {boolean} toolCall
 */
export function mcpFaceOf(
  payload: unknown,
  toolCall: boolean,
):
  | {
      error: unknown;
      result?: undefined;
    }
  | {
      result: {
        content: {
          type: string;
          text: string;
        }[];
        isError: boolean;
        structuredContent: {
          details: Record<string, unknown>;
          xp_code: string;
          message: string;
        };
      };
      error?: undefined;
    };
/**
 * The ten codes, their JSON-RPC code and fixed message (§10.2's table).
 *
 * @type {Record<string, [number, string]>}
 */
export const XP_ERROR_CODES: Record<string, [number, string]>;
/** A payload the reader refuses; `field` is the member at fault, or null for the whole value. */
export class XpErrorRefused extends RuleError {
  field: string;
}

import { RuleError } from './canonical-json.mjs';
