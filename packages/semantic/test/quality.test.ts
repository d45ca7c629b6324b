import { describe, expect, it } from 'vitest';
import {
  classifyQualityScore,
  descriptionQualityScore,
  lowQualitySchemaEntry,
  lowQualitySchemas,
  QUALITY_INDICATORS,
  SemanticError,
} from '../src/index.js';
import { loadServers } from './_corpus.js';

const FIFTHS = [0, 0.2, 0.4, 0.6, 0.8, 1];

describe('descriptionQualityScore', () => {
  it('flags the golden handle_thing ("Handles the thing") as low quality (docs/design.md §7)', () => {
    const q = descriptionQualityScore('Handles the thing', { name: 'handle_thing' });
    expect(q.score).toBe(0.2);
    expect(q.indicators).toEqual({
      length: false,
      action_verb: true,
      data_subject: false,
      usage_guidance: false,
      no_vague_phrases: false,
    });
    expect(q.findings.map((f) => f.indicator)).toEqual([
      'length',
      'data_subject',
      'usage_guidance',
      'no_vague_phrases',
    ]);
    expect(classifyQualityScore(q.score)).toBe('warn');
  });

  it('scores an empty description 0 with every indicator failed', () => {
    for (const empty of ['', '   ', '\n\t']) {
      const q = descriptionQualityScore(empty);
      expect(q.score).toBe(0);
      expect(q.fifths).toBe(0);
      expect(q.findings.map((f) => f.indicator)).toEqual([...QUALITY_INDICATORS]);
    }
    expect(classifyQualityScore(0)).toBe('reject');
  });

  it('gives a complete description all five indicators', () => {
    const q = descriptionQualityScore(
      'Read the complete contents of a file from disk. Use this when you know the exact path; to find files use search_files instead.',
      { name: 'read_text_file' },
    );
    expect(q.score).toBe(1);
    expect(q.findings).toEqual([]);
  });

  it('counts each indicator on its own', () => {
    expect(descriptionQualityScore('x'.repeat(60)).indicators.length).toBe(true);
    expect(descriptionQualityScore('Lists open pull requests').indicators.action_verb).toBe(true);
    expect(descriptionQualityScore('Some stuff').indicators.action_verb).toBe(false);
    expect(descriptionQualityScore('Reads data').indicators.data_subject).toBe(false);
    expect(descriptionQualityScore('Reads the issue').indicators.data_subject).toBe(true);
    expect(descriptionQualityScore('Reads widgets', { name: 'read_widget' }).indicators.data_subject).toBe(
      true,
    );
    expect(descriptionQualityScore('Use this when the user asks for a file').indicators.usage_guidance).toBe(
      true,
    );
    expect(descriptionQualityScore('Manages stuff').indicators.no_vague_phrases).toBe(false);
    expect(descriptionQualityScore('Creates an issue').indicators.no_vague_phrases).toBe(true);
  });

  it('scores every one of the 672 real tools with an exact multiple of 0.2 and findings that match', () => {
    let total = 0;
    for (const server of loadServers()) {
      for (const tool of server.tools) {
        total++;
        const q = descriptionQualityScore(tool.description ?? '', { name: tool.name });
        const where = `${server.file}: ${tool.name}`;
        expect(FIFTHS, where).toContain(q.score);
        expect(q.score, where).toBe(q.fifths / 5);
        expect(q.findings.length, where).toBe(5 - q.fifths);
        for (const f of q.findings) {
          expect(f.message.length, where).toBeGreaterThan(0);
          expect(f.fix.length, where).toBeGreaterThan(0);
        }
      }
    }
    expect(total).toBe(672);
  });

  it('is deterministic', () => {
    const text = 'Search GitHub issues by label. Use this to find open bugs.';
    expect(descriptionQualityScore(text)).toEqual(descriptionQualityScore(text));
  });
});

describe('thresholds and low_quality_schemas', () => {
  it('classifies against the defaults (threshold 0.40, floor 0.20)', () => {
    expect(FIFTHS.map((s) => classifyQualityScore(s))).toEqual(['reject', 'warn', 'ok', 'ok', 'ok', 'ok']);
  });
  it('honours per-source thresholds', () => {
    const t = { description_quality_threshold: 0.8, description_quality_floor: 0.4 };
    expect(FIFTHS.map((s) => classifyQualityScore(s, t))).toEqual([
      'reject',
      'reject',
      'warn',
      'warn',
      'ok',
      'ok',
    ]);
  });
  it('refuses thresholds out of range or a floor above the threshold', () => {
    expect(() => classifyQualityScore(0.5, { description_quality_floor: 1.5 })).toThrow(SemanticError);
    expect(() =>
      classifyQualityScore(0.5, { description_quality_threshold: 0.2, description_quality_floor: 0.4 }),
    ).toThrow(/must not exceed/);
  });
  it('builds the announce entries, sorted by kind, naming the failures', () => {
    const schemas = [
      {
        kind: 'com.acme.fs.read_file',
        quality: descriptionQualityScore('Read the complete contents of a file from disk.'),
      },
      { kind: 'com.acme.fs.handle_thing', quality: descriptionQualityScore('Handles the thing') },
      { kind: 'com.acme.fs.empty', quality: descriptionQualityScore('') },
    ];
    const entries = lowQualitySchemas(schemas);
    expect(entries.map((e) => [e.kind, e.description_quality_score])).toEqual([
      ['com.acme.fs.empty', 0],
      ['com.acme.fs.handle_thing', 0.2],
    ]);
    expect(entries[1]!.issue).toMatch(/^Description too vague for reliable agent discovery: .*vague filler/);
    expect(lowQualitySchemaEntry('k', descriptionQualityScore('Handles the thing'))).toEqual({
      kind: 'k',
      description_quality_score: 0.2,
      issue: entries[1]!.issue,
    });
  });
});
