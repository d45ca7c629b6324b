// Linear-time patterns (docs/security.md, "Regular expressions"): the classic catastrophic
// pattern validates a long argument at once, patterns with no linear-time evaluation are refused
// at admission with the tool, the pattern and the reason, and ECMAScript meanings are kept.
import { describe, expect, it } from 'vitest';
import { linearRegExp, SchemaCompiler, translateTool, UnboundedPatternError } from '../src/index.js';

const CTX = { server: 's', namespace: 'com.test.s', adapterVersion: '0.1.0' };

describe('linearRegExp', () => {
  it('runs ^(a+)+$ on 100,000 characters and a mismatch at the end (exponential for a backtracking engine)', () => {
    const re = linearRegExp('^(a+)+$', 'u');
    expect(re.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(re.test('a'.repeat(100_000))).toBe(true);
  });

  it('keeps ECMAScript meanings: \\s includes U+3000, . excludes U+2028, $ is the end of input', () => {
    expect(linearRegExp('^\\s$', 'u').test('\u3000')).toBe(true);
    expect(linearRegExp('^.$', 'u').test('\u2028')).toBe(false);
    expect(linearRegExp('^a$', 'u').test('a\n')).toBe(false);
  });

  it('refuses a backreference and a lookahead, naming the construct', () => {
    expect(() => linearRegExp('^(a)\\1$', 'u')).toThrow(UnboundedPatternError);
    expect(() => linearRegExp('^(a)\\1$', 'u')).toThrow(/backreference at offset 4 needs backtracking/);
    expect(() => linearRegExp('^(?=a)', 'u')).toThrow(/lookahead at offset 1/);
  });

  it('refuses what RE2 cannot hold (a repeat count over 1000), saying so', () => {
    expect(() => linearRegExp('^a{1001}$', 'u')).toThrow(/RE2 refuses it: .*repeat count/);
  });

  it('throws the engine’s own SyntaxError for an invalid pattern', () => {
    expect(() => linearRegExp('(', 'u')).toThrow(SyntaxError);
    expect(() => linearRegExp('\\_', 'u')).toThrow(/Invalid regular expression/);
    expect(linearRegExp('^\\_$', '').test('_')).toBe(true);
  });
});

describe('schemas validate patterns in linear time', () => {
  const compiler = new SchemaCompiler();

  it('pattern and patternProperties use the linear engine', () => {
    const r = compiler.compile({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+)+$': { type: 'integer' } },
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.validate({ s: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(r.validate({ s: 'aaa', [`${'x'.repeat(50_000)}`]: 'not an integer' })).toBe(false);
    expect(r.validate({ s: 'aaa', [`${'x'.repeat(50_000)}!`]: 'any' })).toBe(true);
  });

  it('refuses a schema with a lookbehind, with the pointer of the pattern', () => {
    const r = compiler.compile({ type: 'object', properties: { a: { type: 'string', pattern: '(?<!x)y' } } });
    expect(r).toMatchObject({
      ok: false,
      unboundedPattern: { pattern: '(?<!x)y', pointer: '/properties/a/pattern' },
    });
  });

  it('refuses the tool at admission: the tool, the pattern, where and why', () => {
    const r = translateTool(
      {
        name: 'twice',
        inputSchema: { type: 'object', properties: { word: { type: 'string', pattern: '^(\\w+) \\1$' } } },
      },
      CTX,
    );
    expect(r).toMatchObject({
      ok: false,
      refusal: { tool: 'twice', code: 'UNSAFE_SCHEMA', pointer: '/inputSchema/properties/word/pattern' },
    });
    if (r.ok) return;
    expect(r.refusal.reason).toBe(
      'inputSchema/properties/word/pattern: pattern "^(\\\\w+) \\\\1$" cannot be evaluated in linear time (a backreference at offset 7 needs backtracking); a tool with this pattern is refused',
    );
  });

  it('admits the catastrophic pattern itself (RE2 bounds it)', () => {
    const r = translateTool(
      {
        name: 'evil',
        inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
      },
      { ...CTX, quality: { floor: 0 } },
    );
    expect(r.ok ? undefined : r.refusal).toBeUndefined();
  });
});
