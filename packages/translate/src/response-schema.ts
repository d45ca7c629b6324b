/**
 * Response payload schemas (docs/design.md §2): a tool's response is the MCP
 * `CallToolResult` as the server returned it; `structuredContent` follows the tool's
 * `outputSchema`. A prompt's response is the `GetPromptResult`, a resource template's the
 * `ReadResourceResult`.
 * @module
 */
import { _cloneJson } from './_json-util.js';
import { _forEachSubschema } from './_schema-walk.js';
import { isJsonObject, type JsonObject, type JsonSchema } from './json.js';

const STRUCTURED = '/properties/structuredContent';

/**
 * The schema of a tool's `CallToolResult`. With an `outputSchema`, `structuredContent` is that
 * schema embedded: its `$schema` moves to the root (every keyword of the wrapper means the same in
 * all supported dialects), a root `$id` is dropped and its `#/...` references are re-rooted under
 * `#/properties/structuredContent`. An `outputSchema` using `$dynamicRef`/`$recursiveRef` cannot
 * be re-rooted; then `structuredContent` is `{type: "object"}` and `embedded` is false.
 */
export function callToolResultSchema(outputSchema?: JsonObject): { schema: JsonObject; embedded: boolean } {
  let structured: JsonObject = { type: 'object' };
  let dialect: JsonObject = {};
  let embedded = outputSchema === undefined;
  if (outputSchema !== undefined) {
    const copy = _reroot(outputSchema);
    if (copy !== undefined) {
      structured = copy;
      embedded = true;
      if (typeof outputSchema.$schema === 'string') dialect = { $schema: outputSchema.$schema };
    }
  }
  const schema: JsonObject = {
    ...dialect,
    type: 'object',
    properties: {
      content: {
        type: 'array',
        items: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
      },
      structuredContent: structured,
      isError: { type: 'boolean' },
      _meta: { type: 'object' },
    },
    required: ['content'],
  };
  return { schema, embedded };
}

/** The schema of a prompt's `GetPromptResult` (MCP `prompts/get`). */
export function getPromptResultSchema(): JsonObject {
  return {
    type: 'object',
    properties: {
      description: { type: 'string' },
      messages: {
        type: 'array',
        items: {
          type: 'object',
          properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'object' } },
          required: ['role', 'content'],
        },
      },
      _meta: { type: 'object' },
    },
    required: ['messages'],
  };
}

/** The schema of a resource read's `ReadResourceResult` (MCP `resources/read`). */
export function readResourceResultSchema(): JsonObject {
  return {
    type: 'object',
    properties: {
      contents: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            uri: { type: 'string' },
            mimeType: { type: 'string' },
            text: { type: 'string' },
            blob: { type: 'string' },
          },
          required: ['uri'],
        },
      },
      _meta: { type: 'object' },
    },
    required: ['contents'],
  };
}

function _reroot(outputSchema: JsonObject): JsonObject | undefined {
  const copy = _cloneJson(outputSchema);
  const rootId = typeof copy.$id === 'string' ? copy.$id.split('#')[0] : undefined;
  delete copy.$schema;
  delete copy.$id;
  let ok = true;
  const visit = (node: JsonSchema, at: string): void => {
    if (!isJsonObject(node)) return;
    if (
      node.$dynamicRef !== undefined ||
      node.$recursiveRef !== undefined ||
      node.$dynamicAnchor !== undefined
    )
      ok = false;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      let fragment: string | undefined;
      if (ref.startsWith('#')) fragment = ref.slice(1);
      else if (rootId !== undefined && rootId !== '' && ref.split('#')[0] === rootId) {
        fragment = ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : '';
      }
      if (fragment === undefined) ok = false;
      else if (fragment === '' || fragment.startsWith('/')) node.$ref = `#${STRUCTURED}${fragment}`;
      else node.$ref = `#${fragment}`;
    }
    _forEachSubschema(node, at, (sub) => visit(sub.schema, sub.pointer));
  };
  visit(copy, '');
  return ok ? copy : undefined;
}
