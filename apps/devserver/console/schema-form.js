// A form generated from a tool's input schema, and the browser-side check of a payload against
// that same schema. The check covers the keywords a form can get wrong (type, required, enum,
// const, properties, additionalProperties, items, lengths, pattern, bounds, multipleOf, allOf,
// anyOf, oneOf, not); a keyword it does not know is listed as "not checked here" — the adapter
// validates the full schema when the call arrives, and its refusal is shown with the answer.
import { h } from './api.js';

const CHECKED = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'examples',
  'type',
  'required',
  'enum',
  'const',
  'properties',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'format',
  'minProperties',
  'maxProperties',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(type, value) {
  const actual = typeOf(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The problems of `value` against `schema`, as `path: message` strings (empty when it passes),
 * plus the keywords this check skipped.
 */
export function validate(schema, value) {
  const errors = [];
  const skipped = new Set();
  check(schema, value, '$', errors, skipped);
  return { errors, skipped: [...skipped] };
}

function check(schema, value, path, errors, skipped) {
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    errors.push(`${path}: no value is allowed here`);
    return;
  }
  for (const keyword of Object.keys(schema)) if (!CHECKED.has(keyword)) skipped.add(keyword);
  const before = errors.length;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(t, value))) {
      errors.push(
        `${path}: expected ${types.join(' or ')}, got ${typeOf(value)}${typeof value === 'string' ? ` ${JSON.stringify(value)}` : ''}`,
      );
      return;
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => same(e, value)))
    errors.push(
      `${path}: expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${JSON.stringify(value)}`,
    );
  if ('const' in schema && !same(schema.const, value))
    errors.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      errors.push(`${path}: expected at least ${schema.minLength} characters, got ${length}`);
    if (schema.maxLength !== undefined && length > schema.maxLength)
      errors.push(`${path}: expected at most ${schema.maxLength} characters, got ${length}`);
    if (schema.pattern !== undefined) {
      try {
        if (!new RegExp(schema.pattern, 'u').test(value))
          errors.push(`${path}: expected to match /${schema.pattern}/, got ${JSON.stringify(value)}`);
      } catch {
        skipped.add('pattern');
      }
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push(`${path}: expected ≥ ${schema.minimum}, got ${value}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push(`${path}: expected ≤ ${schema.maximum}, got ${value}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      errors.push(`${path}: expected > ${schema.exclusiveMinimum}, got ${value}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
      errors.push(`${path}: expected < ${schema.exclusiveMaximum}, got ${value}`);
    if (
      schema.multipleOf !== undefined &&
      Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9
    )
      errors.push(`${path}: expected a multiple of ${schema.multipleOf}, got ${value}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${path}: expected at least ${schema.minItems} items, got ${value.length}`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${path}: expected at most ${schema.maxItems} items, got ${value.length}`);
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
      errors.push(`${path}: expected unique items`);
    if (schema.items !== undefined && !Array.isArray(schema.items))
      for (const [i, item] of value.entries()) check(schema.items, item, `${path}[${i}]`, errors, skipped);
    else if (Array.isArray(schema.items)) skipped.add('items (tuple form)');
  }
  if (typeOf(value) === 'object') {
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? [])
      if (!(name in value)) errors.push(`${path}: missing the required property ${JSON.stringify(name)}`);
    const count = Object.keys(value).length;
    if (schema.minProperties !== undefined && count < schema.minProperties)
      errors.push(`${path}: expected at least ${schema.minProperties} properties, got ${count}`);
    if (schema.maxProperties !== undefined && count > schema.maxProperties)
      errors.push(`${path}: expected at most ${schema.maxProperties} properties, got ${count}`);
    for (const [name, item] of Object.entries(value)) {
      if (name in properties) check(properties[name], item, `${path}.${name}`, errors, skipped);
      else if (schema.additionalProperties === false)
        errors.push(`${path}: unexpected property ${JSON.stringify(name)} (additionalProperties is false)`);
      else if (typeof schema.additionalProperties === 'object')
        check(schema.additionalProperties, item, `${path}.${name}`, errors, skipped);
    }
  }
  for (const sub of schema.allOf ?? []) check(sub, value, path, errors, skipped);
  const passes = (sub) => {
    const inner = [];
    check(sub, value, path, inner, skipped);
    return inner.length === 0;
  };
  if (schema.anyOf !== undefined && !schema.anyOf.some(passes))
    errors.push(`${path}: matches none of the anyOf alternatives`);
  if (schema.oneOf !== undefined) {
    const n = schema.oneOf.filter(passes).length;
    if (n !== 1) errors.push(`${path}: expected exactly one oneOf alternative to match, got ${n}`);
  }
  if (schema.not !== undefined && passes(schema.not)) errors.push(`${path}: matches the schema under "not"`);
  return errors.length === before;
}

function primaryType(schema) {
  if (!schema || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

/**
 * Builds the form fields of an object schema into `fieldset` and returns a function that reads
 * the payload back (empty optional fields left out; unparsable input kept as text so the check
 * names it).
 */
export function buildForm(fieldset, schema) {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const readers = [];
  fieldset.replaceChildren(h('legend', {}, 'Arguments'));
  const names = Object.keys(properties);
  if (names.length === 0) fieldset.append(h('p', { class: 'dim' }, 'This tool takes no arguments.'));
  for (const name of names) {
    const property = properties[name] ?? {};
    const id = `arg-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const type = primaryType(property);
    const hint = [type ?? 'any', property.description].filter(Boolean).join(' · ');
    let input;
    let read;
    if (Array.isArray(property.enum)) {
      input = h(
        'select',
        { id, name },
        h('option', { value: '' }, required.has(name) ? '(choose)' : '(leave out)'),
        property.enum.map((v, i) => h('option', { value: String(i) }, JSON.stringify(v))),
      );
      read = () => (input.value === '' ? undefined : property.enum[Number(input.value)]);
    } else if (type === 'boolean') {
      input = h(
        'select',
        { id, name },
        h('option', { value: '' }, '(leave out)'),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
      read = () => (input.value === '' ? undefined : input.value === 'true');
    } else if (type === 'number' || type === 'integer') {
      input = h('input', { id, name, inputmode: 'decimal', autocomplete: 'off' });
      read = () => {
        const raw = input.value.trim();
        if (raw === '') return undefined;
        const n = Number(raw);
        return Number.isFinite(n) ? n : raw;
      };
    } else if (type === 'string') {
      input = h('input', { id, name, autocomplete: 'off' });
      read = () => (input.value === '' ? undefined : input.value);
    } else {
      input = h('textarea', { id, name, spellcheck: 'false', placeholder: 'JSON' });
      read = () => {
        const raw = input.value.trim();
        if (raw === '') return undefined;
        try {
          return JSON.parse(raw);
        } catch {
          return raw;
        }
      };
    }
    fieldset.append(
      h(
        'div',
        { class: 'field' },
        h('label', { for: id }, h('span', { class: 'mono' }, name), required.has(name) ? ' (required)' : ''),
        input,
        h('span', { class: 'hint' }, hint),
      ),
    );
    readers.push([name, read]);
  }
  return () => {
    const payload = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) payload[name] = value;
    }
    return payload;
  };
}
