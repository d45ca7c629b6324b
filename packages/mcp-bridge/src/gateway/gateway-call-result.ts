/**
 * How a gateway link checks a forwarded `tools/call` result. The face's SDK server validates every
 * `tools/call` result against the spec's schema before it sends it to the client; the link's SDK
 * client validated the same result once more on arrival (zod, 5 % of the gateway's CPU per call,
 * docs/performance.md). A result of the common shape — `content` of plain text blocks, with
 * `structuredContent` and `isError` at most — is passed on as it came, since the face's check
 * accepts it unchanged; any other result is validated here as before, so a malformed result is
 * still refused by the link with the same error.
 * @module
 */
import { specTypeSchemas } from '@modelcontextprotocol/client';

/** The keys of a result the link passes on unchecked (besides `content`). */
const _PLAIN_KEYS = new Set(['content', 'structuredContent', 'isError']);

/** A Standard Schema for a 2025-11-25 `tools/call` result forwarded to the face's server. */
export const _FORWARDED_CALL_RESULT = {
  '~standard': {
    version: 1,
    vendor: 'xprotocol',
    validate(value: unknown) {
      if (_isPlainCallResult(value)) return { value };
      return specTypeSchemas.CallToolResult['~standard'].validate(value);
    },
  },
} as const;

/**
 * True for `{content: [{type: 'text', text: string}, …], structuredContent?: {…}, isError?: boolean}`
 * and nothing else: a shape every revision's `CallToolResult` schema accepts as it is.
 */
export function _isPlainCallResult(value: unknown): boolean {
  if (!_isRecord(value) || !Array.isArray(value.content)) return false;
  for (const key in value) if (!_PLAIN_KEYS.has(key)) return false;
  if ('isError' in value && typeof value.isError !== 'boolean') return false;
  if ('structuredContent' in value && !_isRecord(value.structuredContent)) return false;
  for (const block of value.content as unknown[]) {
    if (!_isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
    for (const key in block) if (key !== 'type' && key !== 'text') return false;
  }
  return true;
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
