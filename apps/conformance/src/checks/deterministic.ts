/**
 * Test 1: schema translation is deterministic. Two adapter instances on the same configuration,
 * and one instance after a restart, must publish byte-identical contracts.
 * @module
 */
import type { Check, CheckContext } from '../check.js';

function _bytes(contracts: Record<string, unknown>[]): Map<string, string> {
  return new Map(contracts.map((c) => [String(c.kind), JSON.stringify(c)]));
}

function _compare(
  context: CheckContext,
  label: string,
  first: Map<string, string>,
  second: Map<string, string>,
): void {
  const kinds = [...new Set([...first.keys(), ...second.keys()])].sort();
  for (const kind of kinds) {
    const a = first.get(kind);
    const b = second.get(kind);
    if (a === b) continue;
    let at = 0;
    while (a && b && at < a.length && a[at] === b[at]) at++;
    context.fail({
      what: `${label}: contract ${kind} is byte-identical`,
      sent: `xp.schema.catalog to both`,
      received:
        a === undefined || b === undefined
          ? `${kind} listed by only one of them`
          : `bytes differ from offset ${at}: …${a.slice(at, at + 80)}… versus …${b.slice(at, at + 80)}…`,
      expected: 'the same bytes for the same MCP tools',
    });
  }
}

export const deterministic: Check = {
  name: 'deterministic',
  number: 1,
  title: 'Schema translation is deterministic',
  async run(context) {
    const { target } = context;
    const first = await target.xp.catalog(target.keys.client, target.adapter.ed25519);
    context.expect(first.contracts.length > 0, {
      what: 'the catalog lists contracts',
      sent: 'xp.schema.catalog',
      received: `${first.contracts.length} contracts`,
      expected: 'at least one contract per test-server tool',
    });
    const base = _bytes(first.contracts);
    const again = await target.xp.catalog(target.keys.client, target.adapter.ed25519);
    _compare(context, 'the same instance asked twice', base, _bytes(again.contracts));
    const twin = await target.twin();
    if (twin) {
      try {
        const other = await target.xp.catalog(target.keys.client, twin.key);
        _compare(context, 'a second instance with the same configuration', base, _bytes(other.contracts));
        context.note(`a second instance published the same ${other.contracts.length} contracts`);
      } finally {
        await twin.stop();
      }
    } else {
      context.note('--endpoint mode: no second instance (only repeated catalogs compared)');
    }
    if (await target.restart()) {
      const after = await target.xp.catalog(target.keys.client, target.adapter.ed25519);
      _compare(context, 'the instance after a restart', base, _bytes(after.contracts));
      context.note('after a restart the contracts were byte-identical');
    }
  },
};
