// The adapter's validator (ajv + ajv-formats) for a JSON Schema's dialect, shared by the MaskBench
// eval and the tests that compare grammars with it: draft-04 by `ajv-draft-04`, 2019-09 and
// 2020-12 (the default, as for a schema without `$schema`) by their ajv builds, other drafts by ajv.
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

// CommonJS interop: Node gives `module.exports`, a bundler (vitest) may give `{ default }`.
const pick = (m) => m.default ?? m;
const DIALECTS = {
  'draft-04': pick(Ajv04Module),
  'draft-07': pick(AjvModule),
  '2019-09': pick(Ajv2019Module),
  '2020-12': pick(Ajv2020Module),
};
const addFormats = pick(addFormatsModule);

/** The dialect a schema's `$schema` names. */
export function dialectOf(schema) {
  const uri = typeof schema === 'object' && schema !== null ? String(schema.$schema ?? '') : '';
  if (uri.includes('draft-04')) return 'draft-04';
  if (uri.includes('2019-09')) return '2019-09';
  if (uri.includes('draft-0')) return 'draft-07';
  return '2020-12';
}

/** A new ajv instance for `dialect`, with ajv-formats unless `formats` is false. */
export function newAjv(dialect, { formats = true } = {}) {
  const ajv = new DIALECTS[dialect]({ strict: false, logger: false });
  if (formats) addFormats(ajv);
  return ajv;
}

/** A validator for `schema` in its dialect, or `undefined` when ajv refuses the schema. */
export function ajvFor(schema) {
  try {
    const validate = newAjv(dialectOf(schema)).compile(schema);
    return (data) => validate(data) === true;
  } catch {
    return undefined;
  }
}
