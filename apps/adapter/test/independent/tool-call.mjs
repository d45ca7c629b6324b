/**
 * Tool calls: the request payload and the strict reader of a `{kind}.result`, written from
 * docs/protocol.md §10.1 (how an MCP name becomes a kind) and §10.9 alone. It imports nothing
 * from this repository: it is one part of an independent XProtocol client that proves the
 * document is enough to interoperate.
 *
 * @module
 */
import { RuleError } from './canonical-json.mjs';

/** @param {unknown} v */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The infix of each kind of entry (§10.1's table): a tool has none. */
const ENTRY_INFIX = { tool: '', prompt: 'prompt.', resource_template: 'resource.' };

/**
 * The request kind of a server's entry under a namespace (§10.1: "The segment of an MCP name"),
 * or a refusal naming the character at fault.
 *
 * @param {'tool' | 'prompt' | 'resource_template'} entry @param {string} namespace @param {string} name
 */
export function entryKind(entry, namespace, name) {
  let segment = name.replace(/[./]/g, '_');
  if (['prompt', 'resource', 'result'].includes(segment)) segment += '_';
  const bad = /[^A-Za-z0-9_-]/.exec(segment);
  if (segment === '' || bad) {
    throw new RuleError(
      '§10.1',
      `the name ${JSON.stringify(name)} has no kind${bad ? ` (character ${JSON.stringify(bad[0])})` : ' (it is empty)'}`,
    );
  }
  const kind = `${namespace}.${ENTRY_INFIX[entry]}${segment}`;
  if (`${kind}.result`.length > 255) throw new RuleError('§10.1', `${kind}.result is over 255 characters`);
  return kind;
}

/**
 * Refuses a tool call's arguments that are not a JSON object (§10.9, step 3's schema requires one).
 *
 * @param {unknown} args
 */
export function checkToolArguments(args) {
  if (!isObject(args)) throw new RuleError('§10.9', 'SCHEMA_VIOLATION: a tool call payload is a JSON object');
  return args;
}

/**
 * Reads a `{kind}.result` payload, the MCP CallToolResult (§10.9); other members are ignored.
 *
 * @param {unknown} payload
 */
export function readToolResult(payload) {
  const fail = (/** @type {string} */ why) => {
    throw new RuleError('§10.9', `not a CallToolResult: ${why}`);
  };
  if (!isObject(payload)) fail('expected an object');
  const r = /** @type {Record<string, unknown>} */ (payload);
  if (!Array.isArray(r.content)) fail('content: expected an array');
  for (const block of /** @type {unknown[]} */ (r.content)) {
    if (!isObject(block) || typeof (/** @type {any} */ (block).type) !== 'string')
      fail('content: each block is an object with a string type');
  }
  if ('structuredContent' in r && !isObject(r.structuredContent))
    fail('structuredContent: expected an object');
  if ('isError' in r && typeof r.isError !== 'boolean') fail('isError: expected a boolean');
  if ('_meta' in r && !isObject(r._meta)) fail('_meta: expected an object');
  return /** @type {{ content: { type: string, text?: string }[], structuredContent?: object, isError?: boolean, _meta?: object }} */ (
    r
  );
}
