/**
 * Runs the zod schema over the interpolated YAML values and turns every zod issue into a
 * positioned message in the house form: "expected …, got …" for a wrong value, "missing,
 * expected …" for a required key, and "unknown key, did you mean …?" for a typo. An interpolated
 * value where a number or boolean is expected (`port: ${PORT}`) is read as one.
 * @module
 */
import { z } from 'zod';
import { type _Collector, _render } from './_collector.js';
import { _homeOf, _keyIndex } from './_key-index.js';
import type { KeyPath } from './_path.js';
import { _expectedPhrase } from './_phrased.js';
import { _nearestKey } from './_suggest.js';
import { type ConfigFile, configFileSchema } from './schema.js';

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

const TYPE_PHRASE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/**
 * Validates the shape of the configuration; issues go to `collector`. Returns the typed file (with
 * defaults) when the shape is valid.
 */
export function _validateShape(collector: _Collector): ConfigFile | undefined {
  const knownKeys = new WeakMap<object, string[]>();
  const errorMap = (iss: RawIssue): string => {
    if (iss.code === 'unrecognized_keys') {
      if (iss.schema instanceof z.ZodObject && typeof iss.input === 'object' && iss.input !== null) {
        knownKeys.set(iss.input, Object.keys(iss.schema.shape));
      }
      return 'unknown key';
    }
    if (iss.code === 'invalid_key' && iss.schema instanceof z.ZodRecord) {
      return `expected ${_expectedPhrase(iss.schema.keyType) ?? 'a valid key'}`;
    }
    return `expected ${_expectedPhrase(iss.schema) ?? _genericPhrase(iss)}`;
  };

  let result = configFileSchema.safeParse(collector.source.value, { error: errorMap });
  // `port: ${PORT}` interpolates to the string "8080": read it as the number it spells, once
  if (!result.success && _coerceInterpolated(collector, result.error.issues)) {
    result = configFileSchema.safeParse(collector.source.value, { error: errorMap });
  }
  if (result.success) return result.data;

  // a typo explains the key it misspells: `keyFile` is reported, `key_file` is not also "missing"
  const suggested = new Set<string>();
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    // reading the message runs the error map (zod may build messages lazily), which records the keys
    if (issue.message === '') continue;
    const path = _keyPath(issue.path);
    const holder = collector.get(path);
    const known = (typeof holder === 'object' && holder !== null && knownKeys.get(holder)) || [];
    for (const key of issue.keys) {
      const near = _nearestKey(key, known);
      if (near !== undefined) suggested.add(JSON.stringify([...path, near]));
      collector.error([...path, key], _unknownKeyMessage(key, near, known, path), 'key');
    }
  }

  for (const issue of result.error.issues) {
    const path = _keyPath(issue.path);
    if (issue.code === 'unrecognized_keys') continue;
    if (issue.code === 'invalid_key') {
      collector.error(path, `${issue.message}, got ${JSON.stringify(path[path.length - 1])}`, 'key');
      continue;
    }
    const value = collector.get(path);
    if (value === undefined) {
      if (suggested.has(JSON.stringify(path))) continue;
      const message = collector.source.hasKey(path)
        ? `${issue.message}, got an empty value`
        : `missing, ${issue.message}`;
      collector.error(path, message, collector.source.hasKey(path) ? 'key' : 'value');
      continue;
    }
    collector.error(path, `${issue.message}, got ${_render(value, path)}`);
  }
  return undefined;
}

function _keyPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.filter((p): p is string | number => typeof p !== 'symbol');
}

function _unknownKeyMessage(
  key: string,
  near: string | undefined,
  known: readonly string[],
  path: KeyPath,
): string {
  if (key === '<<')
    return 'YAML merge keys ("<<") are not supported: write the keys out, or alias a whole value';
  if (near !== undefined) return `unknown key, did you mean ${JSON.stringify(near)}?`;
  // the right key in the wrong section: `well_known_port` at the top level belongs in discovery
  const here = _homeOf(path);
  const index = _keyIndex();
  const elsewhere = _nearestKey(key, [...index.keys()]);
  const homes = elsewhere === undefined ? [] : (index.get(elsewhere) ?? []).filter((h) => h !== here);
  if (elsewhere !== undefined && homes.length > 0) {
    const where = homes.map((h) => (h === '' ? 'the top level' : h)).join(' or ');
    if (elsewhere === key) return `unknown key here: ${key} belongs under ${where}`;
    return `unknown key here, did you mean ${JSON.stringify(elsewhere)} (under ${where})?`;
  }
  if (known.length === 0) return 'unknown key';
  return `unknown key, expected one of ${known.map((k) => JSON.stringify(k)).join(', ')}`;
}

function _genericPhrase(iss: RawIssue): string {
  switch (iss.code) {
    case 'invalid_type':
      return TYPE_PHRASE[iss.expected] ?? `a value of type ${iss.expected}`;
    case 'invalid_value':
      return iss.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return min === 1 ? 'a non-empty string' : `at least ${min} characters`;
      if (iss.origin === 'array') return min === 1 ? 'a non-empty list' : `at least ${min} entries`;
      return iss.inclusive ? `a number of at least ${min}` : `a number above ${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `at most ${max} characters`;
      if (iss.origin === 'array') return `at most ${max} entries`;
      return iss.inclusive ? `a number of at most ${max}` : `a number below ${max}`;
    }
    case 'invalid_format':
      return iss.format === 'regex' && 'pattern' in iss
        ? `a string matching ${String(iss.pattern)}`
        : `a ${iss.format}`;
    case 'invalid_union':
      return 'one of the accepted forms';
    default:
      return 'a valid value';
  }
}

/** Turns interpolated strings that spell a number or boolean into one where the schema wants it. */
function _coerceInterpolated(collector: _Collector, issues: readonly z.core.$ZodIssue[]): boolean {
  let changed = false;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type') continue;
    const path = _keyPath(issue.path);
    if (!collector.source.interpolated.has(JSON.stringify(path))) continue;
    const value = collector.get(path);
    if (typeof value !== 'string') continue;
    if ((issue.expected === 'number' || issue.expected === 'int') && /^-?\d+(\.\d+)?$/.test(value)) {
      collector.source.set(path, Number(value));
      changed = true;
    } else if (issue.expected === 'boolean' && (value === 'true' || value === 'false')) {
      collector.source.set(path, value === 'true');
      changed = true;
    }
  }
  return changed;
}
