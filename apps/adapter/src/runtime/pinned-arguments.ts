/**
 * What a tool whose change waits for approval refuses beyond its schema (docs/security.md, "Tool
 * pinning"): arguments its pinned definition does not name, which the changed server may act on.
 * @module
 */

/**
 * Why `args` are refused for the held tool `tool` of `source`, whose served (pinned) definition is
 * `pinned`, or `undefined` when its pinned definition names every one of them.
 */
export function _pinnedArgumentsRefusal(
  source: string,
  tool: string,
  pinned: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const schema = pinned?.inputSchema as { properties?: Record<string, unknown> } | undefined;
  const known = schema?.properties ?? {};
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(known, name));
  if (unknown.length === 0) return undefined;
  return `argument${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')} not in the pinned definition of tool ${tool}: its server changed the tool, and the change waits for an operator (xprotocol-adapter approve ${source} ${tool})`;
}
