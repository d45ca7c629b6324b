/**
 * Honest results (docs/architecture.md, "Honest results"): `_summarizeResult` bounds the text of
 * `content[]`, cuts it at a character, names the paging arguments, keeps the whole result in
 * `structuredContent`, keeps other blocks, and leaves results within the bound (or bound 0) alone.
 */
import { describe, expect, it } from 'vitest';
import { _pagingArguments, _summarizeResult } from '../src/face/result-summary.js';

const none = () => [];

describe('_summarizeResult', () => {
  it('leaves a result within the bound, and any result with the bound at 0, as it is', () => {
    const result = { content: [{ type: 'text', text: 'short' }] };
    expect(_summarizeResult(result, 100, none)).toBe(result);
    const big = { content: [{ type: 'text', text: 'x'.repeat(1000) }] };
    expect(_summarizeResult(big, 0, none)).toBe(big);
  });

  it('summarizes within the bound, never inside a character, and keeps the whole in structuredContent', () => {
    const text = 'é'.repeat(1000); // 2,000 bytes of UTF-8
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    const result = { content: [{ type: 'text', text }, image] };
    const out = _summarizeResult(result, 600, () => ['cursor', 'limit']) as {
      content: { type: string; text?: string }[];
      structuredContent: unknown;
    };
    const summary = out.content[0]!.text!;
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThanOrEqual(600);
    expect(summary).not.toContain('\uFFFD');
    expect(summary.startsWith('éé')).toBe(true);
    expect(summary).toContain('the first part of 2000 bytes of text');
    expect(summary).toContain('call again with `cursor`, `limit`');
    expect(out.content[1]).toEqual(image);
    expect(out.structuredContent).toEqual({ content: result.content });
  });

  it("keeps the tool's own structuredContent, and says to narrow when the tool has no paging argument", () => {
    const result = {
      content: [{ type: 'text', text: 'y'.repeat(5000) }],
      structuredContent: { rows: [1, 2, 3] },
    };
    const out = _summarizeResult(result, 1000, none) as {
      content: { text: string }[];
      structuredContent: unknown;
    };
    expect(out.structuredContent).toEqual({ rows: [1, 2, 3] });
    expect(out.content[0]!.text).toContain('call again with narrower arguments');
  });
});

describe('_pagingArguments', () => {
  it("names a schema's paging and narrowing properties, at most four, in schema order", () => {
    const schema = {
      type: 'object',
      properties: { query: {}, page_token: {}, limit: {}, offset: {}, perPage: {}, max_results: {} },
    };
    expect(_pagingArguments(schema)).toEqual(['page_token', 'limit', 'offset', 'perPage']);
    expect(_pagingArguments({ type: 'object' })).toEqual([]);
    expect(_pagingArguments(undefined)).toEqual([]);
  });
});
