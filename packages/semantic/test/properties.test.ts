import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annotateTools,
  descriptionQualityScore,
  parseToolName,
  pluralize,
  singularize,
  splitIdentifier,
} from '../src/index.js';
import { ToolIndex, tokenizeForSearch } from '../src/search.js';

// Fixed seed and run count: the suite is deterministic (a failure reproduces on every run).
fc.configureGlobal({ seed: 0x5e3a, numRuns: 300 });

const identifier = fc.stringMatching(/^[A-Za-z0-9_.\-/ ]{0,40}$/);

describe('properties (fast-check)', () => {
  it('splitIdentifier yields lowercase alphanumeric tokens whose concatenation keeps every letter and digit', () => {
    fc.assert(
      fc.property(identifier, (name) => {
        const tokens = splitIdentifier(name);
        for (const t of tokens) expect(t).toMatch(/^[a-z0-9]+$/);
        expect(tokens.join('')).toBe(name.replace(/[^A-Za-z0-9]/g, '').toLowerCase());
      }),
    );
  });

  it('parseToolName: the verb is one of the tokens, subject tokens come from the name', () => {
    fc.assert(
      fc.property(identifier, (name) => {
        const p = parseToolName(name);
        if (p.verb === null) expect(p.verbIndex).toBe(-1);
        else expect(p.tokens[p.verbIndex]).toBe(p.verb);
        for (const s of p.subjectTokens) expect(p.tokens).toContain(s);
      }),
    );
  });

  it('quality scores are exact fifths for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const q = descriptionQualityScore(text);
        expect([0, 0.2, 0.4, 0.6, 0.8, 1]).toContain(q.score);
        expect(q.findings.length).toBe(5 - q.fifths);
      }),
    );
  });

  it('singularize inverts pluralize on singular regular nouns (consonant, -e, -y, -ch, -sh, -x endings)', () => {
    const noun = fc
      .stringMatching(/^[a-z]{1,9}(?:[bdgklmnprt]|[bdgklmnprt]e|[bdgklmnprt]y|ch|sh|x)$/)
      // Irregular plurals ("men", "people") are not inputs here, nor "ax", whose plural "axes" reads
      // back as "axis" by design.
      .filter((w) => singularize(w) === w && w !== 'ax');
    fc.assert(
      fc.property(noun, (word) => {
        expect(singularize(pluralize(word)), word).toBe(word);
      }),
    );
    expect(singularize(pluralize('man'))).toBe('man');
    expect(singularize('men')).toBe('man');
  });

  it('annotations and rankings do not depend on the order tools arrive in', () => {
    const tool = fc.record({
      name: fc.stringMatching(/^[a-z]{2,8}(_[a-z]{2,8}){0,2}$/),
      description: fc.lorem({ maxCount: 12 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(tool, { selector: (t) => t.name, minLength: 1, maxLength: 12 }),
        fc.nat(),
        (tools, seed) => {
          const shuffled = [...tools].sort(
            (a, b) =>
              ((a.name.length * 31 + seed) % 7) - ((b.name.length * 31 + seed) % 7) ||
              (a.name < b.name ? -1 : 1),
          );
          const byName = (list: typeof tools) => {
            const annotated = annotateTools(list, 'com.example.ns');
            return Object.fromEntries(list.map((t, i) => [t.name, annotated[i]]));
          };
          expect(byName(shuffled)).toEqual(byName(tools));
          const a = new ToolIndex();
          a.add(tools.map((t) => ({ id: t.name, ...t })));
          const b = new ToolIndex();
          b.add(shuffled.map((t) => ({ id: t.name, ...t })));
          const query = tools[0]!.description.split(' ').slice(0, 3).join(' ');
          if (tokenizeForSearch(query).length > 0)
            expect(b.search(query, { limit: 20 })).toEqual(a.search(query, { limit: 20 }));
        },
      ),
      { numRuns: 50 },
    );
  });
});
