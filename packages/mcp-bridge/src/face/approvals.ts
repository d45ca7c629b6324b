/**
 * Approval before a call (docs/operating.md, "Approvals"): a tool whose approval mode is `confirm`
 * runs only once the face's MCP client said yes to an elicitation (MCP `elicitation/create`, form
 * mode) sent on the call's own request. A client that declines or cancels, one that declared no
 * elicitation capability (it cannot be asked), and a 2026-07-28 client (no server requests; not
 * asked yet) are refused with a JSON-RPC error whose `data.approval` says which; the tool never
 * runs.
 * @module
 */
import { ProtocolError, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { _modernRequest } from '../gateway/modern-request.js';
import { _approvalQuestion } from '../policy/approval-mode.js';

/**
 * Asks the client of `from` to confirm a call of `tool` with `args`; resolves when it accepted,
 * throws the refusal otherwise.
 */
export async function _confirmCall(
  from: { server: Server; ctx: ServerContext } | undefined,
  tool: string,
  args: Record<string, unknown>,
): Promise<void> {
  const refuse = (approval: string, why: string): never => {
    throw new ProtocolError(
      -32600,
      `the tool ${tool} was not run: it needs the user's confirmation (approval: confirm), ${why}`,
      {
        xp_code: 'AUTHORIZATION_INSUFFICIENT',
        approval,
      },
    );
  };
  if (!from) return refuse('unavailable', 'and this call came from no MCP client that could be asked');
  if (_modernRequest(from.ctx) !== undefined)
    return refuse(
      'unsupported',
      'and a 2026-07-28 client is not asked yet: call it from a 2025-11-25 session',
    );
  if (from.server.getClientCapabilities()?.elicitation === undefined)
    return refuse(
      'unsupported',
      'and this MCP client declared no elicitation capability, so it cannot be asked',
    );
  const result = await from.ctx.mcpReq.elicitInput({
    mode: 'form',
    message: _approvalQuestion(tool, args),
    requestedSchema: { type: 'object', properties: {} },
  });
  if (result.action !== 'accept')
    refuse(result.action, `and the user ${result.action === 'decline' ? 'declined' : 'cancelled'} it`);
}
