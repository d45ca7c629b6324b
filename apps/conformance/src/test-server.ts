#!/usr/bin/env node
/**
 * The suite's own MCP server (stdio, newline-delimited JSON-RPC 2.0): serves {@link TEST_TOOLS},
 * one prompt and one resource template, and appends every `tools/call`, `prompts/get` and
 * `resources/read` it receives, as one JSON line, to the file named by `--calls`.
 * The suite reads that file to prove that a refused call never reached the server.
 * Usage: `node test-server.js --calls FILE`.
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  noteText,
  promptText,
  TEST_PROMPT,
  TEST_RESOURCE_TEMPLATE,
  TEST_TOOLS,
  UPSTREAM_FAILURE_MESSAGE,
} from './test-tools.js';

const callsIndex = process.argv.indexOf('--calls');
const callsFile = callsIndex > 0 ? process.argv[callsIndex + 1] : undefined;

function _send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function _result(name: string, args: Record<string, unknown>): Record<string, unknown> {
  const text = name === 'read_note' ? `Note ${String(args.title)}: buy milk.` : JSON.stringify(args);
  return { content: [{ type: 'text', text }], isError: false };
}

function _handle(request: {
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown>;
}): object | undefined {
  const { id, method, params = {} } = request;
  if (id === undefined) return undefined; // a notification
  switch (method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18',
          capabilities: { tools: {}, prompts: {}, resources: {} },
          serverInfo: { name: 'xprotocol-conformance-test-server', version: '1.0.0' },
        },
      };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          tools: TEST_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        },
      };
    case 'prompts/list':
      return { jsonrpc: '2.0', id, result: { prompts: [TEST_PROMPT] } };
    case 'prompts/get': {
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (callsFile)
        appendFileSync(callsFile, `${JSON.stringify({ prompt: params.name, arguments: args })}\n`);
      if (params.name !== TEST_PROMPT.name)
        return {
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: `unknown prompt ${String(params.name)}` },
        };
      const text = promptText(String(args.title));
      return {
        jsonrpc: '2.0',
        id,
        result: { messages: [{ role: 'user', content: { type: 'text', text } }] },
      };
    }
    case 'resources/list':
      return { jsonrpc: '2.0', id, result: { resources: [] } };
    case 'resources/templates/list':
      return { jsonrpc: '2.0', id, result: { resourceTemplates: [TEST_RESOURCE_TEMPLATE] } };
    case 'resources/read': {
      const uri = String(params.uri);
      if (callsFile) appendFileSync(callsFile, `${JSON.stringify({ resource: uri, arguments: { uri } })}\n`);
      if (!uri.startsWith('notes://'))
        return { jsonrpc: '2.0', id, error: { code: -32002, message: `Resource not found: ${uri}` } };
      return {
        jsonrpc: '2.0',
        id,
        result: { contents: [{ uri, mimeType: 'text/plain', text: noteText(uri) }] },
      };
    }
    case 'tools/call': {
      const name = String(params.name);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (callsFile) appendFileSync(callsFile, `${JSON.stringify({ tool: name, arguments: args })}\n`);
      if (name === 'fail_upstream') {
        return { jsonrpc: '2.0', id, error: { code: -32000, message: UPSTREAM_FAILURE_MESSAGE } };
      }
      if (!TEST_TOOLS.some((t) => t.name === name)) {
        return { jsonrpc: '2.0', id, error: { code: -32602, message: `unknown tool ${name}` } };
      }
      return { jsonrpc: '2.0', id, result: _result(name, args) };
    }
    default:
      return {
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `method ${String(method)} not found` },
      };
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  try {
    const response = _handle(JSON.parse(line) as Parameters<typeof _handle>[0]);
    if (response !== undefined) _send(response);
  } catch {
    _send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  }
});
