// docs/protocol.md §10.5 is enough for a second implementation of MCP sessions across XProtocol:
// the independent client of test/independent/ (node:crypto and `ws`, nothing of this repository)
// reads every context of testdata/vectors/xp-mcp-tag.json as the document says, then calls a real
// adapter bin through the real relay as an MCP client's caller would: with its own `mcp` tag, it
// receives the progress and log messages of a call before its result, answers the server's
// sampling and elicitation requests, and gets SCHEMA_VIOLATION for a context the document refuses.
// The adapter wraps the repository's conformance fixture (an MCP server on the SDK's `Server`)
// over stdio; only processes are started with this repository's test helpers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from './independent/canonical-json.mjs';
import {
  endSession,
  McpTagRefused,
  newSessionId,
  readMcpContext,
  sessionCall,
} from './independent/mcp-session.mjs';
import { encryptPayload } from './independent/payload.mjs';
import { newIdentity, type StrictClient } from './independent/strict-client.mjs';
import { readToolResult } from './independent/tool-call.mjs';
import { conversationKey } from './independent/x25519.mjs';
import { readXpError } from './independent/xp-error.mjs';
import { startIndependentTarget } from './support/independent-target.js';
import { CONFORMANCE_FIXTURE, Processes } from './support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
// biome-ignore lint/suspicious/noExplicitAny: vector files are untyped JSON
type Any = any;
const VECTORS: Any = JSON.parse(readFileSync(join(ROOT, 'testdata', 'vectors', 'xp-mcp-tag.json'), 'utf8'));

describe('testdata/vectors/xp-mcp-tag.json, by the independent reader (§10.5)', () => {
  it.each((VECTORS.contexts as Any[]).map((v) => [v.name, v] as const))('%s', (_name, v: Any) => {
    let verdict: Any = { verdict: 'accepted' };
    try {
      readMcpContext(v.text);
    } catch (error) {
      expect(error).toBeInstanceOf(McpTagRefused);
      verdict = { verdict: 'refused', field: (error as McpTagRefused).field };
    }
    expect(verdict).toEqual(v.expect);
  });
});

describe('MCP sessions with a real adapter bin through the real relay (§10.5)', () => {
  const procs = new Processes();
  const me = newIdentity();
  let client: StrictClient;
  let endpoint: { ed25519: string; x25519: string };

  beforeAll(async () => {
    ({ client, endpoint } = await startIndependentTarget(
      procs,
      me,
      `mcp_sources:
  - name: conformance
    transport: stdio
    command: ["${process.execPath}", "${CONFORMANCE_FIXTURE}", "stdio"]
    xprotocol_namespace: com.test.conf
    description_quality_threshold: 0
    description_quality_floor: 0
access:
  default: deny
  grants:
    - key: ${me.ed25519.publicKey}
      capabilities: [com.test.conf.*]
`,
    ));
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await procs.close();
  });

  const context = (capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    session: newSessionId(),
    capabilities,
    clientInfo: { name: 'independent-client', version: '1.0.0' },
    ...extra,
  });

  it('progress asked for in the context comes back before the result, its token the request id', async () => {
    const call = await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_tool_with_progress',
      payload: {},
      context: context({}, { progress: true }),
    });
    expect(call.answer.kind).toBe('com.test.conf.test_tool_with_progress.result');
    expect(readToolResult(call.payload).content[0]?.text).toBe('Tool with progress executed successfully');
    const progress = call.notifications.filter((n) => n.method === 'notifications/progress');
    expect(progress.map((n) => (n.params as Any).progress)).toEqual([0, 50, 100]);
    for (const n of progress) expect(n.params).toMatchObject({ progressToken: call.request.id, total: 100 });
  });

  it("the server's log messages of a call come back in order, before its result", async () => {
    const call = await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_tool_with_logging',
      payload: {},
      context: context(),
    });
    expect(call.answer.kind).toBe('com.test.conf.test_tool_with_logging.result');
    expect(
      call.notifications
        .filter((n) => n.method === 'notifications/message')
        .map((n) => (n.params as Any).data),
    ).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  });

  it("a client offering sampling answers the server's sampling/createMessage; the result carries its answer", async () => {
    const call = await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_sampling',
      payload: { prompt: 'Say hi' },
      context: context({ sampling: {} }),
      answerServerRequest: (request) => {
        expect(request.method).toBe('sampling/createMessage');
        return {
          role: 'assistant',
          content: { type: 'text', text: 'Hi from the independent client' },
          model: 'independent-model',
          stopReason: 'endTurn',
        };
      },
    });
    expect(call.serverRequests.map((r) => r.method)).toEqual(['sampling/createMessage']);
    expect((call.serverRequests[0]!.params as Any).messages[0].content).toEqual({
      type: 'text',
      text: 'Say hi',
    });
    expect(readToolResult(call.payload).content[0]?.text).toBe(
      'LLM response: Hi from the independent client',
    );
  });

  it("a client offering elicitation answers the server's elicitation/create", async () => {
    const call = await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_elicitation',
      payload: { message: 'Your name?' },
      context: context({ elicitation: { form: {} } }),
      answerServerRequest: (request) => {
        expect(request.method).toBe('elicitation/create');
        return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
      },
    });
    expect(call.answer.kind).toBe('com.test.conf.test_elicitation.result');
    expect(readToolResult(call.payload).content[0]?.text).toContain('"action":"accept"');
    expect(readToolResult(call.payload).content[0]?.text).toContain('ada@example.com');
  });

  it('a context the document refuses is answered SCHEMA_VIOLATION naming the mcp tag; the tool does not run', async () => {
    const key = conversationKey(
      me.x25519.privateKey,
      endpoint.x25519,
      me.ed25519.publicKey,
      endpoint.ed25519,
    );
    // A session id of 15 characters: one under the bound.
    const bad = ['mcp', encryptPayload(key, canonicalJson({ session: 'a'.repeat(15), capabilities: {} }))];
    const { answer, payload } = await client.sealedCall(
      endpoint,
      { kind: 'com.test.conf.test_simple_text', payload: {}, extraTags: [bad] },
      20_000,
    );
    expect(answer.kind).toBe('xp.error');
    const error = readXpError(payload);
    expect(error.code).toBe('SCHEMA_VIOLATION');
    expect(error.message).toContain('mcp tag');
  });

  it('xp.mcp.request (§10.4): prompts/get and resources/read answered with the MCP result as the server gave it', async () => {
    const prompt = await client.sealedCall(endpoint, {
      kind: 'xp.mcp.request',
      payload: { method: 'prompts/get', params: { name: 'test_simple_prompt' } },
    });
    expect(prompt.answer.kind).toBe('xp.mcp.request.result');
    expect(prompt.payload).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
    const resource = await client.sealedCall(endpoint, {
      kind: 'xp.mcp.request',
      payload: { method: 'resources/read', params: { uri: 'test://static-text' } },
    });
    expect(resource.payload).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
  });

  it('xp.mcp.request (§10.4): a progress token in params._meta, and a method not in the table, are SCHEMA_VIOLATION', async () => {
    const withToken = await client.sealedCall(endpoint, {
      kind: 'xp.mcp.request',
      payload: {
        method: 'resources/read',
        params: { uri: 'test://static-text', _meta: { progressToken: 7 } },
      },
    });
    expect(withToken.answer.kind).toBe('xp.error');
    expect(readXpError(withToken.payload)).toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('params._meta.progressToken'),
    });
    const unknown = await client.sealedCall(endpoint, {
      kind: 'xp.mcp.request',
      payload: { method: 'tools/list' },
    });
    expect(readXpError(unknown.payload)).toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });

  it('ending a session is accepted, and a new session of the same caller is served after it', async () => {
    const ended = context();
    await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_simple_text',
      payload: {},
      context: ended,
    });
    expect(await endSession(client, endpoint, ended.session)).toMatchObject({ accepted: true });
    const call = await sessionCall(client, endpoint, {
      kind: 'com.test.conf.test_simple_text',
      payload: {},
      context: context(),
    });
    expect(call.answer.kind).toBe('com.test.conf.test_simple_text.result');
  });
});
