#!/usr/bin/env node
// Whole-corpus evaluation of compileSchema on MaskBench (JSONSchemaBench) dev data.
// Usage: node scripts/eval-maskbench.mjs [--data FILE] [--limit N] [--failures N] [--only A,B]
// (--only: just the schemas whose file name contains one of the comma-separated strings)
// Every test instance is checked twice with this package's matcher, compact and indented by two
// spaces, members in the corpus's order. Valid instances have their numbers written as
// JSON.stringify writes them (the compiler's convention); invalid ones spelled as in the corpus (`12345.0` stays `12345.0`: a draft-04
// integer has no fraction, so re-spelling it `12345` would test a different, valid instance). A
// schema passes when it compiles, every valid instance is accepted in both spellings and every
// invalid one is rejected in both.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { compileMatcher, compileSchema, GbnfCompileError } from '../dist/index.js';
import { MASKBENCH_DEV } from './_testdata.mjs';
import { ajvFor } from './ajv-for.mjs';
import { parseRawJson, writeRawJson } from './raw-json.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const file = opt('--data', fileURLToPath(MASKBENCH_DEV));
const limit = Number(opt('--limit', 'Infinity'));
const showFailures = Number(opt('--failures', '0'));
const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).slice(0, limit);
const only = opt('--only', '').split(',').filter(Boolean);
if (only.length > 0)
  lines.splice(0, lines.length, ...lines.filter((l) => only.some((o) => JSON.parse(l).file.includes(o))));

const t = {
  schemas: 0,
  compiled: 0,
  exact: 0,
  passed: 0,
  validRejected: 0,
  invalidAccepted: 0,
  crashes: 0,
  schemasInvalidAccepted: 0,
  schemasValidRejected: 0,
  invalidAcceptedAjvValid: 0,
};
const reasons = new Map();
const times = [];
const failures = [];
const invalidAccepted = [];
const started = performance.now();
for (const line of lines) {
  const row = JSON.parse(line);
  const rawTests = parseRawJson(line).get('tests');
  t.schemas++;
  if (t.schemas % 500 === 0) process.stderr.write(`… ${t.schemas} schemas\n`);
  let compiled;
  const t0 = performance.now();
  try {
    compiled = compileSchema(row.schema);
  } catch (e) {
    times.push(performance.now() - t0);
    if (e instanceof GbnfCompileError) reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + 1);
    else {
      t.crashes++;
      reasons.set(`CRASH ${e?.constructor?.name}`, (reasons.get(`CRASH ${e?.constructor?.name}`) ?? 0) + 1);
      if (failures.length < showFailures)
        failures.push({ file: row.file, crash: String(e?.stack ?? e).slice(0, 400) });
    }
    continue;
  }
  times.push(performance.now() - t0);
  t.compiled++;
  if (compiled.exact) t.exact++;
  if (row.tests.length === 0) {
    t.passed++;
    continue;
  }
  let match;
  try {
    match = compileMatcher(compiled.gbnf);
  } catch (e) {
    t.crashes++;
    reasons.set('CRASH grammar refused', (reasons.get('CRASH grammar refused') ?? 0) + 1);
    if (failures.length < showFailures) failures.push({ file: row.file, grammar: String(e).slice(0, 300) });
    continue;
  }
  const ajv = ajvFor(row.schema);
  let ok = true;
  let va = 0;
  let vr = 0;
  for (const [ti, test] of row.tests.entries()) {
    const raw = rawTests[ti].get('data');
    const texts = test.valid
      ? [writeRawJson(raw, '', '', true), writeRawJson(raw, '', '  ', true)]
      : [writeRawJson(raw), writeRawJson(raw, '', '  ')];
    for (const text of texts) {
      const accepted = match(text);
      if (accepted !== test.valid) {
        ok = false;
        if (test.valid) vr++;
        else {
          va++;
          const ajvValid = ajv?.(test.data) === true;
          if (ajvValid) t.invalidAcceptedAjvValid++;
          invalidAccepted.push(
            `${row.file} — "${test.description}" (ajv: ${ajvValid ? 'valid' : 'invalid'})`,
          );
        }
        if (failures.length < showFailures)
          failures.push({
            file: row.file,
            valid: test.valid,
            text: text.slice(0, 200),
            warnings: compiled.warnings.slice(0, 3),
          });
        break;
      }
    }
  }
  t.validRejected += vr;
  t.invalidAccepted += va;
  if (va > 0) t.schemasInvalidAccepted++;
  if (vr > 0) t.schemasValidRejected++;
  if (ok) t.passed++;
}
const total = performance.now() - started;
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
const pct = (n) => `${((100 * n) / t.schemas).toFixed(1)}%`;
console.log(`MaskBench dev: ${t.schemas} schemas (${file})`);
console.log(`compiled        ${t.compiled} (${pct(t.compiled)})`);
console.log(`exact           ${t.exact} (${pct(t.exact)})`);
console.log(`passed          ${t.passed} (${pct(t.passed)})`);
console.log(`valid rejected  ${t.validRejected} instances in ${t.schemasValidRejected} schemas`);
console.log(
  `invalid accepted ${t.invalidAccepted} instances in ${t.schemasInvalidAccepted} schemas (${t.invalidAcceptedAjvValid} of them valid for ajv + ajv-formats, the adapter's validator: label disagreements)`,
);
console.log(`crashes         ${t.crashes}`);
console.log('compile errors by reason:');
for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${r.padEnd(22)} ${n}`);
const sum = times.reduce((a, b) => a + b, 0);
console.log(
  `compile time per schema: median ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms, total ${(sum / 1000).toFixed(2)} s (whole run ${(total / 1000).toFixed(1)} s)`,
);
for (const line of invalidAccepted) console.log(`  invalid accepted: ${line}`);
if (failures.length > 0) console.log(JSON.stringify(failures, null, 1));
if (t.invalidAccepted > t.invalidAcceptedAjvValid || t.crashes > 0) process.exitCode = 1;
