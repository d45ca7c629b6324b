import { describe, expect, it } from 'vitest';
import {
  anyCapabilityMatches,
  type ClassifyToolName,
  capabilityMatches,
  classifyToolName,
  inferCapability,
  inferCapabilityClass,
  isValidGrant,
} from '../src/index.js';

describe('capability matching (docs/design.md §4)', () => {
  it.each([
    ['com.acme.*', 'com.acme.read', true],
    ['com.acme.*', 'com.acme.fs.read', true],
    ['com.acme.*', 'com.acme', false],
    ['com.acme.*', 'com.acmex.read', false],
    ['com.acme.read', 'com.acme.read', true],
    ['com.acme.read', 'com.acme.write', false],
    ['com.acme', 'com.acme.read', false],
    ['*', 'anything.at.all', true],
    ['com.*.read', 'com.acme.read', false],
    ['', 'a', false],
  ])('%s covers %s: %s', (grant, required, expected) => {
    expect(capabilityMatches(grant, required)).toBe(expected);
  });
  it('refuses wildcard required capabilities and malformed grants', () => {
    expect(capabilityMatches('a.*', 'a.*')).toBe(false);
    expect(isValidGrant('a.*.b')).toBe(false);
    expect(isValidGrant('*')).toBe(true);
    expect(anyCapabilityMatches(['x.read', 'a.*'], 'a.b')).toBe(true);
    expect(anyCapabilityMatches([], 'a.b')).toBe(false);
  });
});

describe('capability inference (docs/design.md §4)', () => {
  const ns = 'com.acme.filesystem';
  it.each([
    ['read_file', 'read'],
    ['get_customer', 'read'],
    ['list_directory', 'read'],
    ['search_files', 'read'],
    ['find_user', 'read'],
    ['write_file', 'write'],
    ['create_order', 'write'],
    ['insert_row', 'write'],
    ['add_comment', 'write'],
    ['update_status', 'write'],
    ['edit_file', 'write'],
    ['delete_file', 'delete'],
    ['remove_user', 'delete'],
    ['execute_query', 'execute'],
    ['run_job', 'execute'],
    ['invoke_lambda', 'execute'],
    ['getUserById', 'read'],
    ['create-issue', 'write'],
  ])('auto: %s → {namespace}.%s with the shared verb parser', (name, cls) => {
    const r = inferCapability({ toolName: name, namespace: ns, mode: 'auto', classifyToolName });
    expect(r).toMatchObject({ ok: true, capability: `${ns}.${cls}`, basis: 'verb' });
  });
  it('falls back on readOnlyHint, then destructiveHint, then access', () => {
    const none: ClassifyToolName = () => undefined;
    expect(inferCapabilityClass('thing', { readOnlyHint: true, destructiveHint: true }, none)).toEqual({
      class: 'read',
      basis: 'readOnlyHint',
    });
    expect(inferCapabilityClass('thing', { destructiveHint: true }, none)).toEqual({
      class: 'delete',
      basis: 'destructiveHint',
    });
    expect(inferCapabilityClass('thing', { readOnlyHint: false }, none)).toEqual({
      class: 'access',
      basis: 'default',
    });
    expect(inferCapabilityClass('thing', undefined, none)).toEqual({ class: 'access', basis: 'default' });
  });
  it('a verb match wins over the hints', () => {
    expect(inferCapabilityClass('delete_file', { readOnlyHint: true }, classifyToolName)).toEqual({
      class: 'delete',
      basis: 'verb',
    });
  });
  it('explicit: maps the class onto the listed capability with that last segment (seed internal-api)', () => {
    const base = {
      namespace: 'com.acme.internal',
      mode: 'explicit' as const,
      capabilities: ['internal.read', 'internal.write'],
      classifyToolName,
    };
    expect(inferCapability({ ...base, toolName: 'get_customer' })).toMatchObject({
      ok: true,
      capability: 'internal.read',
    });
    expect(inferCapability({ ...base, toolName: 'create_order' })).toMatchObject({
      ok: true,
      capability: 'internal.write',
    });
    expect(inferCapability({ ...base, toolName: 'update_status' })).toMatchObject({
      ok: true,
      capability: 'internal.write',
    });
    const r = inferCapability({ ...base, toolName: 'delete_order' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.reason).toMatch(
        /tool "delete_order" is inferred as "delete".*no capability ending in "\.delete"/,
      );
  });
  it('explicit: several candidates is an error naming them', () => {
    const r = inferCapability({
      toolName: 'get_x',
      namespace: 'n',
      mode: 'explicit',
      capabilities: ['a.read', 'b.read'],
      classifyToolName,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain('a.read, b.read');
  });
  it('schema_overrides.<tool>.required_capability always wins, in both modes', () => {
    for (const mode of ['auto', 'explicit'] as const) {
      const r = inferCapability({
        toolName: 'delete_everything',
        namespace: 'n',
        mode,
        capabilities: [],
        override: 'filesystem.read',
        classifyToolName,
      });
      expect(r).toEqual({ ok: true, capability: 'filesystem.read', class: undefined, basis: 'override' });
    }
    const bad = inferCapability({
      toolName: 't',
      namespace: 'n',
      mode: 'auto',
      override: 'a.*',
      classifyToolName,
    });
    expect(bad.ok).toBe(false);
  });
});
