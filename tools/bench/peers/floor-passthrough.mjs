// The gateway suite's floor: what Node itself costs between an MCP client and a server, with no
// checks and no SDK. Each POSTed JSON-RPC message is parsed, its id rewritten (as every gateway
// must, to keep its clients' ids apart), forwarded, and the answer with the same new id is written
// back as JSON with the client's id restored. Nothing else: no session, no auth, no limits.
//
//   node floor-passthrough.mjs <port> stdio <command> [args…]   a child over newline-delimited stdio
//   node floor-passthrough.mjs <port> http <url>                 a Streamable HTTP server
//
// Prints "floor listening" once it serves. Test and bench use only; never a product path.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const [portText, mode, ...target] = process.argv.slice(2);
let nextId = 1;
/** Our id → the answer's resolver. */
const waiting = new Map();

/** Sends one message upstream; resolves with the parsed answer when `expectAnswer`. */
let sendUpstream;
if (mode === 'stdio') {
  const child = spawn(target[0], target.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
  child.on('exit', () => process.exit(1));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    const resolve = waiting.get(message.id);
    if (resolve === undefined) return; // a notification or a request from the server: dropped
    waiting.delete(message.id);
    resolve(message);
  });
  sendUpstream = (message, expectAnswer) => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
    return expectAnswer ? new Promise((resolve) => waiting.set(message.id, resolve)) : undefined;
  };
} else if (mode === 'http') {
  let session;
  sendUpstream = async (message, expectAnswer) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (session) headers['mcp-session-id'] = session;
    if (message.method !== 'initialize') headers['mcp-protocol-version'] = '2025-11-25';
    const response = await fetch(target[0], { method: 'POST', headers, body: JSON.stringify(message) });
    session = response.headers.get('mcp-session-id') ?? session;
    const text = await response.text();
    if (!expectAnswer) return undefined;
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
    // The first `data:` line that answers our id (a priming event's data is empty).
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:') || line.slice(5).trim() === '') continue;
      const event = JSON.parse(line.slice(5));
      if (event.id === message.id) return event;
    }
    throw new Error(`no answer to ${message.id} in the upstream's event stream`);
  };
} else {
  console.error('usage: floor-passthrough.mjs <port> stdio <command> [args…] | <port> http <url>');
  process.exit(2);
}

createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405).end();
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) {
      await sendUpstream(message, false);
      response.writeHead(202).end();
      return;
    }
    const clientId = message.id;
    const answer = await sendUpstream({ ...message, id: nextId++ }, true);
    const headers = { 'content-type': 'application/json' };
    // One upstream session for every client: the SDK client wants a session id once it initialized.
    if (message.method === 'initialize') headers['mcp-session-id'] = 'floor';
    response.writeHead(200, headers).end(JSON.stringify({ ...answer, id: clientId }));
  });
}).listen(Number(portText), '127.0.0.1', () => console.log('floor listening'));
process.on('SIGTERM', () => process.exit(0));
