import { isReservedKind, RESERVED_KINDS } from '@xprotocol/wire';
import { describe, expect, it } from 'vitest';
import {
  assertNamespace,
  isContractKind,
  promptKind,
  resourceTemplateKind,
  resultKind,
  TranslateError,
  toolKind,
  toolSegment,
} from '../src/index.js';

describe('kinds (docs/protocol.md §10.1)', () => {
  it('builds {namespace}.{tool} and {kind}.result (docs/design.md §2)', () => {
    expect(toolKind('com.acme.filesystem', 'read_file')).toEqual({
      ok: true,
      kind: 'com.acme.filesystem.read_file',
    });
    expect(resultKind('com.acme.filesystem.read_file')).toBe('com.acme.filesystem.read_file.result');
  });
  it('maps "." and "/" inside a tool name to "_"', () => {
    expect(toolSegment('files/read.v2')).toEqual({ ok: true, segment: 'files_read_v2' });
    expect(toolKind('a.b', 'x.y/z')).toEqual({ ok: true, kind: 'a.b.x_y_z' });
  });
  it.each([
    ['read file', '" "'],
    ['héllo', '"é"'],
    ['a:b', '":"'],
    ['', 'non-empty'],
  ])('refuses %j with a reason naming the culprit', (name, culprit) => {
    const r = toolSegment(name);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(culprit);
  });
  it('builds prompt kinds {namespace}.prompt.{name} (docs/design.md §6)', () => {
    expect(promptKind('com.acme.docs', 'summarize')).toEqual({
      ok: true,
      kind: 'com.acme.docs.prompt.summarize',
    });
  });
  it('refuses a kind that would not leave room for ".result"', () => {
    const r = toolKind('a', 'x'.repeat(250));
    expect(r.ok).toBe(false);
  });
  it('validates kinds segment by segment', () => {
    expect(isContractKind('a.b-c.d_e')).toBe(true);
    for (const bad of ['', '.a', 'a.', 'a..b', 'a b', 'a/b', 5]) expect(isContractKind(bad)).toBe(false);
  });
  it('reserves the xp namespace', () => {
    for (const kind of RESERVED_KINDS) expect(isReservedKind(kind)).toBe(true);
    expect(isReservedKind('xp.mcp.progress')).toBe(true);
    expect(isReservedKind('xpath.tools')).toBe(false);
    expect(() => assertNamespace('xp.tools')).toThrow(/"xp" namespace is reserved/);
    expect(() => assertNamespace('xp')).toThrow(TranslateError);
  });
  it('refuses a malformed namespace with what was expected and what was received', () => {
    expect(() => assertNamespace('com.acme..fs')).toThrow(
      /expected dot-separated segments of \[A-Za-z0-9_-\]\+.*got "com\.acme\.\.fs"/,
    );
    try {
      assertNamespace(42);
    } catch (error) {
      expect((error as TranslateError).code).toBe('INVALID_NAMESPACE');
    }
  });
});

describe('reserved name segments (docs/protocol.md §10.1)', () => {
  it.each([
    ['prompt', 'prompt_'],
    ['resource', 'resource_'],
    ['result', 'result_'],
    ['Result', 'Result'],
    ['prompts', 'prompts'],
    ['my.result', 'my_result'],
  ])('maps the name %j to the segment %j', (name, segment) => {
    expect(toolSegment(name)).toEqual({ ok: true, segment });
  });
  it('keeps a tool named "prompt" from answering with a prompt kind', () => {
    expect(toolKind('a.b', 'prompt')).toEqual({ ok: true, kind: 'a.b.prompt_' });
    expect(promptKind('a.b', 'result')).toEqual({ ok: true, kind: 'a.b.prompt.result_' });
    expect(resultKind('a.b.prompt_')).not.toBe('a.b.prompt.result_');
  });
  it('gives a tool named "result" a kind that is not an answer kind', () => {
    const kind = toolKind('a.b', 'result');
    expect(kind).toEqual({ ok: true, kind: 'a.b.result_' });
  });
  it('builds resource-template kinds {namespace}.resource.{name}', () => {
    expect(resourceTemplateKind('a.b', 'note')).toEqual({ ok: true, kind: 'a.b.resource.note' });
    expect(resourceTemplateKind('a.b', 'result')).toEqual({ ok: true, kind: 'a.b.resource.result_' });
  });
});
