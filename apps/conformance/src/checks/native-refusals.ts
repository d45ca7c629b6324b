/**
 * Native profile: the refusals every endpoint owes (docs/protocol.md §4, §10.2) — an unknown kind
 * in its namespace is `NOT_FOUND`, a payload its schema refuses is `SCHEMA_VIOLATION`, a key it
 * has not granted is `AUTHORIZATION_INSUFFICIENT` — each an `xp.error` signed by the endpoint.
 * @module
 */
import { type Check, show } from '../check.js';
import { verifies } from '../xp-client.js';
import { errorCode, received } from './_answers.js';

export const nativeRefusals: Check = {
  name: 'native-refusals',
  number: 17,
  title: 'Native: unknown kinds, bad payloads and keys without a grant are refused',
  async run(context) {
    const { target } = context;
    const probe = await context.facts.probe();
    const { client, stranger } = target.keys;
    const unknown = `${probe.namespace}.conformance_no_such_tool`;
    const cases: {
      label: string;
      sent: string;
      code: string;
      run: () => ReturnType<typeof target.xp.call>;
    }[] = [
      {
        label: 'an unknown kind',
        sent: `${unknown} {}`,
        code: 'NOT_FOUND',
        run: () => target.xp.call(client, target.adapter, unknown, {}),
      },
      {
        label: 'a key without a grant',
        sent: `${probe.kind} ${show(probe.payload)} from the suite's stranger key`,
        code: 'AUTHORIZATION_INSUFFICIENT',
        run: () => target.xp.call(stranger, target.adapter, probe.kind, probe.payload),
      },
    ];
    if (probe.refused) {
      cases.push({
        label: `a payload with ${probe.refused.how}`,
        sent: `${probe.kind} ${show(probe.refused.value)}`,
        code: 'SCHEMA_VIOLATION',
        run: () => target.xp.call(client, target.adapter, probe.kind, probe.refused!.value),
      });
    } else {
      context.note(`${probe.kind}'s schema accepts any object: no SCHEMA_VIOLATION case`);
    }
    const exchanges = await Promise.all(cases.map((c) => c.run()));
    cases.forEach((c, i) => {
      const exchange = exchanges[i]!;
      context.expect(errorCode(exchange) === c.code, {
        what: `${c.label} is refused with ${c.code}`,
        sent: c.sent,
        received: received(exchange),
        expected: `xp.error ${c.code}`,
      });
      if (exchange.answer)
        context.expect(verifies(exchange.answer) && exchange.answer.pubkey === target.adapter.ed25519, {
          what: `the refusal of ${c.label} is signed by the endpoint`,
          sent: c.sent,
          received: show(exchange.answer.pubkey),
          expected: target.adapter.ed25519,
        });
    });
    context.note(`${cases.map((c) => c.code).join(', ')} as expected`);
  },
};
