import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TESTDATA as DATA } from '../scripts/_testdata.mjs';
import { GbnfRegexError } from '../src/index.js';
import { prng } from './support/grammar-arbitrary.js';
import { isWellFormed, jsonEncodeAnyForm, patternMatcher } from './support/regex-harness.js';

// Real `pattern`s (and patternProperties keys) from testdata/ (see testdata/SOURCES.md): the MCP tools/list dumps
// and the MaskBench dev corpus. For each: translate, then strings generated from the regex and
// random strings over its own characters must be accepted (as JSON string literals, in canonical
// and random escape forms) exactly when RegExp.test accepts them.

interface Source {
  readonly id: string;
  readonly pattern: string;
}

function collect(): Source[] {
  const out = new Map<string, string>();
  const walk = (x: unknown, id: string): void => {
    if (Array.isArray(x)) {
      for (const v of x) walk(v, id);
    } else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'pattern' && typeof v === 'string' && !out.has(v)) out.set(v, id);
        if (k === 'patternProperties' && v && typeof v === 'object') {
          for (const p of Object.keys(v)) if (!out.has(p)) out.set(p, `${id}#patternProperties`);
        }
        walk(v, id);
      }
    }
  };
  const servers = new URL('mcp-servers/', DATA);
  for (const f of readdirSync(servers)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    walk(JSON.parse(readFileSync(new URL(f, servers), 'utf8')), `mcp-servers/${f}`);
  }
  const lines = gunzipSync(readFileSync(new URL('jsonschema/maskbench-dev.jsonl.gz', DATA)))
    .toString('utf8')
    .split('\n');
  for (const line of lines) {
    if (!line) continue;
    const o = JSON.parse(line) as { file: string; schema: unknown };
    walk(o.schema, `maskbench-dev:${o.file}`);
  }
  return [...out].map(([pattern, id]) => ({ id, pattern }));
}

const ALL_SOURCES = collect();
/**
 * CI checks every MCP pattern and a fixed eighth of the MaskBench ones; GBNF_REGEX_CORPUS=all
 * checks all of them (about 35 s).
 */
const SOURCES =
  process.env.GBNF_REGEX_CORPUS === 'all'
    ? ALL_SOURCES
    : ALL_SOURCES.filter((s, i) => s.id.startsWith('mcp-servers/') || i % 8 === 0);

describe('patterns from testdata/', () => {
  it('are there', () => {
    expect(ALL_SOURCES.length).toBeGreaterThan(1200);
    expect(SOURCES.length).toBeGreaterThan(150);
  });

  it('translate (or are refused for a named reason) and agree with RegExp on generated and random strings', () => {
    const tally = { translated: 0, lenient: 0, unsupported: 0, generated: 0, strings: 0 };
    const refused: string[] = [];
    for (const [i, { id, pattern }] of SOURCES.entries()) {
      const where = `${id} /${pattern}/`;
      let lenient = false;
      try {
        new RegExp(pattern, 'u');
      } catch {
        lenient = true;
      }
      let m: (json: string) => boolean;
      try {
        m = patternMatcher(pattern, 'all', lenient);
      } catch (error) {
        expect(error, where).toBeInstanceOf(GbnfRegexError);
        expect((error as GbnfRegexError).code, where).toBe('REGEX_UNSUPPORTED');
        refused.push(`${(error as GbnfRegexError).construct}: ${where}`);
        tally.unsupported++;
        continue;
      }
      tally.translated++;
      if (lenient) tally.lenient++;
      // without the u flag the language differs only for characters above U+FFFF: keep to the BMP then
      const re = new RegExp(pattern, lenient ? '' : 'u');
      const rand = prng(i);
      const own = [...new Set([...pattern.replace(/\\[pPu]\{[^}]*\}/g, '')])].filter((c) => isWellFormed(c));
      const alphabet = [
        ...own,
        'a',
        'Z',
        '0',
        ' ',
        '-',
        '.',
        '/',
        'é',
        ...(lenient ? [] : ['😀']),
        '\n',
        '"',
        '\\',
      ];
      let generated: fc.Arbitrary<string> | undefined;
      try {
        generated = fc.stringMatching(re);
      } catch {
        generated = undefined;
      }
      const generatedSamples: string[] = generated ? fc.sample(generated, { numRuns: 12, seed: i }) : [];
      for (const s of generatedSamples) {
        if (!isWellFormed(s) || (lenient && /[\ud800-\udfff]/.test(s))) continue;
        tally.generated++;
        expect(m(JSON.stringify(s)), `${where} generated ${JSON.stringify(s)}`).toBe(true);
        expect(m(jsonEncodeAnyForm(s, rand)), `${where} generated ${JSON.stringify(s)} (other escapes)`).toBe(
          true,
        );
      }
      // RegExp is the oracle below; it backtracks exponentially on some real patterns
      // (`^(?:[A-Za-z0-9]+-?)+$`), so these strings stay short
      const samples: string[] = [];
      for (const s of generatedSamples.filter((g) => g.length <= 20)) {
        // near misses: one character dropped or changed
        const chars = [...s];
        const at = Math.floor(rand() * (chars.length + 1));
        samples.push([...chars.slice(0, at), ...chars.slice(at + 1)].join(''));
        samples.push(
          [
            ...chars.slice(0, at),
            alphabet[Math.floor(rand() * alphabet.length)],
            ...chars.slice(at + 1),
          ].join(''),
        );
      }
      for (let k = 0; k < 12; k++) {
        let s = '';
        for (let n = Math.floor(rand() * 12); n > 0; n--) s += alphabet[Math.floor(rand() * alphabet.length)];
        samples.push(s);
      }
      for (const s of samples) {
        if (!isWellFormed(s) || (lenient && /[\ud800-\udfff]/.test(s))) continue;
        const want = re.test(s);
        tally.strings++;
        expect(m(JSON.stringify(s)), `${where} on ${JSON.stringify(s)}`).toBe(want);
        expect(m(jsonEncodeAnyForm(s, rand)), `${where} on ${JSON.stringify(s)} (other escapes)`).toBe(want);
      }
    }
    console.log(`regex corpus: ${JSON.stringify(tally)}\n${refused.join('\n')}`);
    expect(tally.translated).toBeGreaterThan(SOURCES.length * 0.95);
  }, 120_000);
});
