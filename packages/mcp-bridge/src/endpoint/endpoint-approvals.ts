/**
 * Approval at the endpoint (docs/operating.md, "Approvals"): a tool whose mode is `confirm` runs
 * for an XProtocol caller only once the caller's MCP client accepted an `elicitation/create` sent
 * across XProtocol as a server request of the call (docs/protocol.md §10.5). A request without an
 * MCP session (no `mcp` tag), a client that declared no elicitation capability or speaks
 * 2026-07-28, one that declines or cancels, and one that cannot be reached are refused with
 * `AUTHORIZATION_INSUFFICIENT` and `details.approval`; the server never sees the call.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import { type XpErrorPayload, xpError } from '@xprotocol/wire';
import { _approvalQuestion } from '../policy/approval-mode.js';
import type { _SessionOf } from './request-session.js';

/** The longest the caller's client may take to answer an approval question, in ms. */
const ANSWER_MS = 10 * 60 * 1000;

/** The refusal of a `confirm` call of `tool` the caller's client did not accept; undefined when it did. */
export async function _confirmAcross(
  event: XpEvent,
  tool: string,
  args: Record<string, unknown>,
  session: _SessionOf,
  timeoutMs: number,
): Promise<XpErrorPayload | undefined> {
  const refuse = (approval: string, why: string) =>
    xpError(
      'AUTHORIZATION_INSUFFICIENT',
      `the tool ${tool} was not run: it needs the user's confirmation (approval: confirm), ${why}`,
      { details: { approval } },
    );
  const caller = session.session;
  if (!caller)
    return refuse(
      'unavailable',
      'and this request named no MCP session (mcp tag) whose client could be asked',
    );
  if (caller.context.input !== undefined)
    return refuse(
      'unsupported',
      'and a 2026-07-28 client is not asked yet: call it from a 2025-11-25 session',
    );
  if (caller.context.capabilities.elicitation === undefined)
    return refuse(
      'unsupported',
      'and the MCP client declared no elicitation capability, so it cannot be asked',
    );
  let answer: unknown;
  try {
    answer = await caller.ask(
      event,
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: _approvalQuestion(tool, args),
          requestedSchema: { type: 'object', properties: {} },
        },
      },
      Math.min(timeoutMs, ANSWER_MS),
    );
  } catch (error) {
    return refuse('unavailable', `and the MCP client could not be asked: ${(error as Error).message}`);
  }
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === 'accept') return undefined;
  const said = typeof action === 'string' ? action : 'no answer';
  return refuse(
    said,
    `and the user ${said === 'decline' ? 'declined' : said === 'cancel' ? 'cancelled' : `gave ${said}`} it`,
  );
}
