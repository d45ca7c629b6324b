/**
 * Every key the configuration knows, with where it belongs (`well_known_port` → `discovery`,
 * `xprotocol_namespace` → `mcp_sources[]`), read from the zod schema. Used to tell an operator
 * that a key is in the wrong section.
 * @module
 */
import { z } from 'zod';
import { configFileSchema } from './schema.js';

let index: Map<string, string[]> | undefined;

function _walk(schema: unknown, where: string, out: Map<string, string[]>, depth: number): void {
  if (depth > 16) return;
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) {
    _walk(schema.unwrap(), where, out, depth + 1);
  } else if (schema instanceof z.ZodArray) {
    _walk(schema.element, `${where}[]`, out, depth + 1);
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options) _walk(option, where, out, depth + 1);
  } else if (schema instanceof z.ZodRecord) {
    _walk(schema.valueType, `${where}.<name>`, out, depth + 1);
  } else if (schema instanceof z.ZodObject) {
    for (const [key, value] of Object.entries(schema.shape as Record<string, unknown>)) {
      const homes = out.get(key) ?? [];
      if (!homes.includes(where)) homes.push(where);
      out.set(key, homes);
      _walk(value, where === '' ? key : `${where}.${key}`, out, depth + 1);
    }
  }
}

/** Key → the places it belongs (`''` for the top level). */
export function _keyIndex(): ReadonlyMap<string, readonly string[]> {
  if (index === undefined) {
    index = new Map();
    _walk(configFileSchema, '', index, 0);
  }
  return index;
}

/** `mcp_sources[0].schema_overrides.read_file` → `mcp_sources[].schema_overrides.<name>`. */
export function _homeOf(path: readonly (string | number)[]): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    if (typeof part === 'number') out += '[]';
    else if (path[i - 1] === 'schema_overrides' || path[i - 1] === 'env') out += '.<name>';
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}
