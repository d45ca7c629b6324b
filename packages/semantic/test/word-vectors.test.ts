// The embedded word vectors and text vectors built from them.
import { describe, expect, it } from 'vitest';
import { _VECTORS_BASE64, _WORDS } from '../src/_word-vectors.data.js';
import { ToolIndex, textVector, vectorSimilarity, WORD_VECTOR_DIMENSIONS } from '../src/search.js';

describe('the embedded table', () => {
  it('holds 60,000 distinct plain words and one 4-bit vector of 100 components for each', () => {
    const words = _WORDS.split(' ');
    expect(words.length).toBe(60_000);
    expect(new Set(words).size).toBe(words.length);
    expect(words.every((w) => /^[a-z][a-z0-9'-]*$/.test(w))).toBe(true);
    expect(words.slice(0, 3)).toEqual(['the', 'of', 'to']); // most frequent first (the SIF weights rely on it)
    expect(atob(_VECTORS_BASE64).length).toBe((words.length * WORD_VECTOR_DIMENSIONS) / 2);
    // Technical words of MCP catalogs are in (a 20,000-word table missed "repository", "query", "delete").
    for (const word of ['repository', 'query', 'delete', 'metadata', 'schema', 'api'])
      expect(words).toContain(word);
  });
});

describe('textVector', () => {
  it('is a pure function of the text: same bytes each time, unit length', () => {
    const a = textVector('Search academic papers on arXiv by keyword')!;
    const b = textVector('Search academic papers on arXiv by keyword')!;
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(a.length).toBe(WORD_VECTOR_DIMENSIONS);
    expect(vectorSimilarity(a, a)).toBeCloseTo(1, 5);
  });

  it('splits identifiers like the search tokenizer', () => {
    const split = textVector('getWeatherForecast')!;
    const spaced = textVector('get weather forecast')!;
    expect(vectorSimilarity(split, spaced)).toBeCloseTo(1, 5);
  });

  it('is null when no word has a vector (stop words, unknown words, nothing)', () => {
    expect(textVector('')).toBeNull();
    expect(textVector('the of and to')).toBeNull();
    expect(textVector('qzxv_blorptastic')).toBeNull();
  });

  it('puts paraphrases closer than unrelated texts that share no word', () => {
    const papers = textVector('find academic papers')!;
    const scholarly = textVector('search scholarly articles')!;
    const branch = textVector('delete a git branch')!;
    const forecast = textVector('weather forecast for tomorrow')!;
    const rain = textVector('will it rain this weekend')!;
    expect(vectorSimilarity(papers, scholarly)).toBeGreaterThan(vectorSimilarity(papers, branch));
    expect(vectorSimilarity(forecast, rain)).toBeGreaterThan(vectorSimilarity(forecast, branch));
  });
});

describe('ToolIndex with word vectors', () => {
  // Same name, same words but one: lexically a tie for a query about wolves (in neither text nor
  // the concept lexicon); "dogs" is the nearer meaning.
  const tools = [
    { id: 'a-invoices', name: 'fetch_records', description: 'Fetch records about invoices.' },
    { id: 'b-dogs', name: 'fetch_records', description: 'Fetch records about dogs.' },
    { id: 'c-branch', name: 'delete_branch', description: 'Delete a git branch.' },
  ];

  it('lets meaning break a lexical tie, and never adds a tool that shares nothing with the query', () => {
    const query = 'fetch records about wolves';
    const lexical = new ToolIndex({ vectorWeight: 0, embedder: null });
    lexical.add(tools);
    const blended = new ToolIndex();
    blended.add(tools);
    const lexicalHits = lexical.search(query);
    expect(lexicalHits.map((h) => h.id)).toEqual(['a-invoices', 'b-dogs']); // a tie, broken by id
    expect(lexicalHits[0]!.score).toBe(lexicalHits[1]!.score);
    const blendedHits = blended.search(query);
    expect(blendedHits.map((h) => h.id)).toEqual(['b-dogs', 'a-invoices']); // reordered, nothing added
  });

  it('refuses a vector weight out of range', () => {
    expect(() => new ToolIndex({ vectorWeight: -1 })).toThrow(
      /vectorWeight: expected a number from 0 to 100/,
    );
  });
});
