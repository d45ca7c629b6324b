import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher, GbnfGrammarError, parseGrammar, printGrammar } from '../src/index.js';
import { prng, randomGrammar, randomText, sampleText } from './support/grammar-arbitrary.js';
import { llamaGrammar } from './support/llama.js';

// Random grammars and texts, llama.cpp's verdict against ours. Bounded runs with fixed seeds.

/** Our refusals that llama.cpp does not give because it would loop forever instead. */
const LOOPS_IN_LLAMA = /loop forever/;

describe('random grammars: llama.cpp and we agree (fast-check)', () => {
  it('on every text, sampled or random, of random valid grammars', async () => {
    let texts = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.boolean(), async (seed, recursive) => {
        const rand = prng(seed);
        const g = randomGrammar(rand, { recursive, tokens: true });
        const gbnf = printGrammar(g);
        const llama = await llamaGrammar(gbnf);
        expect(llama.ok, `seed ${seed}: llama.cpp refused ${JSON.stringify(gbnf)}`).toBe(true);
        if (!llama.ok) return;
        const ours = compileMatcher(g);
        for (let i = 0; i < 10; i++) {
          const t = i % 2 === 0 ? (sampleText(g, rand) ?? randomText(rand)) : randomText(rand);
          texts++;
          expect(ours(t), `seed ${seed} ${JSON.stringify(gbnf)} on ${JSON.stringify(t)}`).toBe(llama.test(t));
        }
      }),
      { numRuns: 150, seed: 21 },
    );
    expect(texts).toBe(1500);
  });

  it('on random edits of grammar text: same accept/refuse verdict, then same matches', async () => {
    const EDIT = [...'"[]()|*+?{},\\-^.#\n :=<>!0129axu'];
    const tally = { accepted: 0, refused: 0, skipped: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const rand = prng(seed);
        // edit code points, not UTF-16 units (a lone surrogate is refused by us, read as U+FFFD by llama.cpp)
        const chars = [...printGrammar(randomGrammar(rand, { recursive: rand() < 0.5 }))];
        for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) {
          const at = Math.floor(rand() * (chars.length + 1));
          const ch = EDIT[Math.floor(rand() * EDIT.length)] ?? 'a';
          const op = rand();
          if (op < 0.4) chars.splice(at, 0, ch);
          else if (op < 0.7) chars.splice(at, 1);
          else chars.splice(at, 1, ch);
        }
        const text = chars.join('');
        let ours: ((t: string) => boolean) | undefined;
        try {
          ours = compileMatcher(parseGrammar(text));
        } catch (error) {
          expect(error, `seed ${seed}`).toBeInstanceOf(GbnfGrammarError);
          if (
            LOOPS_IN_LLAMA.test((error as Error).message) ||
            /maximum below its minimum/.test((error as Error).message)
          ) {
            tally.skipped++;
            return;
          }
        }
        const llama = await llamaGrammar(text);
        expect(llama.ok, `seed ${seed}: verdicts differ on ${JSON.stringify(text)}`).toBe(ours !== undefined);
        if (!llama.ok || !ours) {
          tally.refused++;
          return;
        }
        tally.accepted++;
        for (let i = 0; i < 6; i++) {
          const t = randomText(rand);
          expect(ours(t), `seed ${seed} ${JSON.stringify(text)} on ${JSON.stringify(t)}`).toBe(llama.test(t));
        }
      }),
      { numRuns: 300, seed: 22 },
    );
    // the edits must exercise both verdicts
    expect(tally.accepted).toBeGreaterThan(30);
    expect(tally.refused).toBeGreaterThan(30);
  });
});
