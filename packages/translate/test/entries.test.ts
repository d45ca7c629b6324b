import { describe, expect, it } from 'vitest';
import { expandUriTemplate, translateSource, uriTemplateVariables } from '../src/index.js';

const BASE = { name: 'notes', namespace: 'com.acme.notes', adapterVersion: '0.1.0' } as const;
const described = 'Read the note named by its title. Use when the agent needs the text of one note.';

describe('prompt and resource-template contracts (docs/protocol.md §10.11)', () => {
  it('a prompt needs the capability prompts/get needs over xp.mcp.request, and is annotated', () => {
    const out = translateSource({
      ...BASE,
      tools: [],
      prompts: [
        { name: 'summarize_note', description: described, arguments: [{ name: 'title', required: true }] },
      ],
    });
    const c = out.contracts[0];
    expect(c?.auth.required_capability).toBe('com.acme.notes.mcp.prompts.get');
    expect(c?.response.kind).toBe('com.acme.notes.prompt.summarize_note.result');
    expect(c?.semantic?.auto_generated).toBe(true);
    expect(typeof c?.semantic?.description_quality_score).toBe('number');
    expect(c?.gbnf_status.state).toBe('exact');
  });
  it('a resource template becomes {namespace}.resource.{name} with its variables as the payload', () => {
    const out = translateSource({
      ...BASE,
      tools: [],
      resourceTemplates: [
        {
          name: 'note',
          uriTemplate: 'notes://{title}{?lang}',
          description: described,
          mimeType: 'text/plain',
        },
      ],
    });
    expect(out.refused).toEqual([]);
    const c = out.contracts[0];
    expect(c?.kind).toBe('com.acme.notes.resource.note');
    expect(c?.payload).toEqual({
      type: 'object',
      properties: { title: { type: 'string' }, lang: { type: 'string' } },
      additionalProperties: false,
      required: ['title'],
    });
    expect(c?.source).toMatchObject({
      mcp_resource_template: 'note',
      uri_template: 'notes://{title}{?lang}',
    });
    expect(c?.auth.required_capability).toBe('com.acme.notes.mcp.resources.read');
    expect(c?.response.kind).toBe('com.acme.notes.resource.note.result');
    expect(c?.semantic?.auto_generated).toBe(true);
  });
  it('refuses a template that is not RFC 6570, saying where', () => {
    const out = translateSource({
      ...BASE,
      tools: [],
      resourceTemplates: [{ name: 'bad', uriTemplate: 'notes://{title' }],
    });
    expect(out.contracts).toEqual([]);
    expect(out.refused).toEqual([
      {
        tool: 'bad',
        entry: 'resource_template',
        code: 'INVALID_TOOL',
        reason: 'uriTemplate: not an RFC 6570 URI template: the expression at 8 is not closed with "}"',
      },
    ]);
  });
});

describe('the reserved words at the name position (docs/protocol.md §10.1)', () => {
  const tool = (name: string) => ({ name, description: described, inputSchema: { type: 'object' } });
  it('a tool named "result" is renamed result_, and loses to a tool really named result_', () => {
    const alone = translateSource({ ...BASE, tools: [tool('result')] });
    expect(alone.contracts.map((c) => c.kind)).toEqual(['com.acme.notes.result_']);
    const both = translateSource({ ...BASE, tools: [tool('result'), tool('result_')] });
    expect(both.contracts.map((c) => (c.source as { mcp_tool: string }).mcp_tool)).toEqual(['result_']);
    expect(both.refused.map((r) => [r.tool, r.code])).toEqual([['result', 'NAME_COLLISION']]);
  });
  it('a tool named "prompt" and a prompt named "result" get kinds and answer kinds that never meet', () => {
    const out = translateSource({
      ...BASE,
      tools: [tool('prompt')],
      prompts: [{ name: 'result', description: described }],
    });
    const kinds = out.contracts.flatMap((c) => [c.kind, c.response.kind]);
    expect(kinds).toEqual([
      'com.acme.notes.prompt.result_',
      'com.acme.notes.prompt.result_.result',
      'com.acme.notes.prompt_',
      'com.acme.notes.prompt_.result',
    ]);
  });
});

describe('URI templates (RFC 6570)', () => {
  it('lists variables, required unless only in a query form', () => {
    expect(uriTemplateVariables('x://{a}/{+b}{#c}{.d}{/e*}{;f}{?g,a}{&h:3}')).toEqual({
      ok: true,
      variables: [
        { name: 'a', required: true },
        { name: 'b', required: true },
        { name: 'c', required: true },
        { name: 'd', required: true },
        { name: 'e', required: true },
        { name: 'f', required: true },
        { name: 'g', required: false },
        { name: 'h', required: false },
      ],
    });
  });
  it.each([
    ['x://{a b}', 'expression {a b}: "a b" is not a variable name (RFC 6570 varspec)'],
    ['x://a}', 'a "}" at 5 closes no expression'],
    ['x://{}', 'expression {}: "" is not a variable name (RFC 6570 varspec)'],
  ])('refuses %j', (template, reason) => {
    expect(uriTemplateVariables(template)).toEqual({ ok: false, reason });
  });
  // RFC 6570 §3.2 examples, with var = "value", hello = "Hello World!", path = "/foo/bar".
  const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', x: '1024', y: '768' };
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{var:3}', 'val'],
    ['{?undef}', ''],
    ['x://{hello}', 'x://Hello%20World%21'],
  ])('expands %j to %j', (template, expected) => {
    expect(expandUriTemplate(template, values)).toBe(expected);
  });
  it('encodes UTF-8 bytes and keeps percent triplets only in reserved expansion', () => {
    expect(expandUriTemplate('{a}', { a: 'é%41' })).toBe('%C3%A9%2541');
    expect(expandUriTemplate('{+a}', { a: 'é%41' })).toBe('%C3%A9%41');
  });
});
