/**
 * Test 6: capability enforcement. A call without the required grant is answered
 * `AUTHORIZATION_INSUFFICIENT`, and the test server never sees it; a granted call goes through.
 * @module
 */
import { type Check, show } from '../check.js';
import { TEST_NAMESPACE } from '../test-tools.js';
import { errorCode, marker, received } from './_answers.js';

export const capability: Check = {
  name: 'capability',
  number: 6,
  title: 'Capability enforcement: requests without the required capability are rejected',
  async run(context) {
    const { target } = context;
    const granted = marker('granted');
    const ungrantedTool = marker('ungranted-tool');
    const stranger = marker('stranger');
    const [ok, noGrant, noKey] = await Promise.all([
      target.xp.call(target.keys.client, target.adapter, `${TEST_NAMESPACE}.read_note`, { title: granted }),
      target.xp.call(target.keys.client, target.adapter, `${TEST_NAMESPACE}.delete_note`, {
        title: ungrantedTool,
      }),
      target.xp.call(target.keys.stranger, target.adapter, `${TEST_NAMESPACE}.read_note`, {
        title: stranger,
      }),
    ]);
    context.expect(
      ok.answer?.kind === `${TEST_NAMESPACE}.read_note.result` && target.reached(granted) !== false,
      {
        what: 'a call with the grant goes through (control)',
        sent: `${TEST_NAMESPACE}.read_note from the granted client key`,
        received: received(ok),
        expected: `${TEST_NAMESPACE}.read_note.result, and the test server records the call`,
      },
    );
    for (const [label, exchange, mark, kind] of [
      [
        'a tool whose capability the key lacks',
        noGrant,
        ungrantedTool,
        `${TEST_NAMESPACE}.delete_note (needs ${TEST_NAMESPACE}.admin)`,
      ],
      ['a key with no grant at all', noKey, stranger, `${TEST_NAMESPACE}.read_note from an unknown key`],
    ] as const) {
      context.expect(errorCode(exchange) === 'AUTHORIZATION_INSUFFICIENT', {
        what: `${label} is refused`,
        sent: kind,
        received: received(exchange),
        expected: 'xp.error with code AUTHORIZATION_INSUFFICIENT',
      });
      const reached = target.reached(mark);
      context.expect(reached !== true, {
        what: `${label}: the MCP server never sees the call`,
        sent: kind,
        received: `the test server recorded ${show(target.readCalls()?.filter((c) => JSON.stringify(c).includes(mark)))}`,
        expected: 'no call recorded',
      });
      if (reached === undefined) context.note('the calls file is not readable: "never reached" not verified');
    }
    context.note('ungranted tool and unknown key refused before the MCP server');
  },
};
