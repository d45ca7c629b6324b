/**
 * A tool's approval mode (docs/operating.md, "Approvals"): `auto` runs at once; `confirm` runs only
 * once the caller's MCP client accepted an elicitation showing the call — on the face (its own
 * client) and at the endpoint (the caller's client, across XProtocol).
 * @module
 */

/** `auto` or `confirm`. */
export type ApprovalMode = 'auto' | 'confirm';

/** The message an approval question shows: the tool and its arguments as JSON, cut at 2000 characters. */
export function _approvalQuestion(tool: string, args: Record<string, unknown>): string {
  const shown = JSON.stringify(args);
  return `Run the tool ${tool} with these arguments?\n${shown.length > 2000 ? `${shown.slice(0, 2000)}…` : shown}`;
}
