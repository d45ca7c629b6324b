/**
 * Test 8: signature verification. Through the injector relay (which checks nothing, unlike a
 * real relay) the adapter receives a tampered event, one signed by the wrong key, one carrying
 * another event's id, a replay and an expired request. Each must be refused as docs/protocol.md §4
 * says — forged events dropped without an answer, a replay not run twice, an expired request
 * answered `EXPIRED` or dropped — and the test server must never see them. A valid event through
 * the same relay is the control. The control's answer also shows that the adapter signs and
 * encrypts what it sends.
 * @module
 */
import { getTag, hexToBytes, type XpEvent } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type Check, type CheckContext, show } from '../check.js';
import { type Exchange, nowSeconds, sealRequest, verifies } from '../xp-client.js';
import { marker, received } from './_answers.js';

function _signedAndSealed(context: CheckContext, exchange: Exchange, KIND: string): void {
  const answer = exchange.answer;
  if (!answer) return;
  const { target } = context;
  context.expect(verifies(answer) && answer.pubkey === target.adapter.ed25519, {
    what: 'the adapter signs what it sends (its answer verifies under its key)',
    sent: `${KIND} (control)`,
    received: `${show(answer.pubkey)} ${verifies(answer) ? 'verifies' : 'does not verify'}`,
    expected: `an event signed by ${target.adapter.ed25519}`,
  });
  let plain = true;
  try {
    JSON.parse(answer.content);
  } catch {
    plain = false;
  }
  context.expect(!plain && getTag(answer, 'x25519') !== undefined && exchange.openError === undefined, {
    what: 'the adapter encrypts what it sends (the answer is a sealed payload to the caller)',
    sent: `${KIND} (control)`,
    received: `content ${show(answer.content, 60)}, x25519 tag ${show(getTag(answer, 'x25519'))}${exchange.openError ? `, cannot open: ${exchange.openError}` : ''}`,
    expected: "an encrypted content with the x25519 tag that opens with the caller's key",
  });
}

export const signatures: Check = {
  name: 'signatures',
  number: 8,
  title: 'Signature verification: invalid events are rejected',
  async run(context) {
    const { target } = context;
    const injector = target.injector;
    if (
      !context.expect(injector !== undefined && injector.subscriptionCount() > 0, {
        what: "the adapter listens on the suite's injector relay",
        sent: 'the configuration lists the injector relay',
        received: `${injector?.subscriptionCount() ?? 0} subscriptions on it`,
        expected: 'at least one subscription (list the injector URL in relay.urls)',
      })
    ) {
      return;
    }
    const { client, stranger } = target.keys;
    const call = await context.facts.signedCall();
    const KIND = call.kind;
    const _count = (_context: CheckContext, mark: string) => call.count(mark);
    const inject = (event: XpEvent | Record<string, unknown>, timeoutMs = 5000, settleMs?: number) =>
      target.xp.exchange(event as XpEvent, target.adapter.ed25519, client, {
        timeoutMs,
        injector,
        ...(settleMs !== undefined && { settleMs }),
      });
    const request = (mark: string) => sealRequest(client, target.adapter, KIND, call.payload(mark));

    const controlMark = marker('control');
    const control = await inject(request(controlMark), 20_000);
    context.expect(control.answer?.kind === `${KIND}.result` && _count(context, controlMark) !== 0, {
      what: 'a valid event through the injector relay is answered (control)',
      sent: `${KIND} ${show(call.payload(controlMark))}`,
      received: received(control),
      expected: `${KIND}.result and the call recorded by the test server`,
    });
    _signedAndSealed(context, control, KIND);

    const forged: { label: string; mark: string; event: Record<string, unknown> }[] = [];
    {
      const mark = marker('tampered');
      const event = request(mark);
      const other = request(marker('tampered-other'));
      forged.push({
        label: 'tampered (content replaced, id and sig kept)',
        mark,
        event: { ...event, content: other.content },
      });
    }
    {
      const mark = marker('wrong-key');
      const event = request(mark);
      const sig = Buffer.from(nodeSignatures.sign(hexToBytes(event.id), stranger.ed25519.secretKey)).toString(
        'hex',
      );
      forged.push({ label: 'signed by the wrong key', mark, event: { ...event, sig } });
    }
    {
      const mark = marker('wrong-id');
      const event = request(mark);
      const other = request(marker('wrong-id-other'));
      forged.push({ label: "carrying another event's id", mark, event: { ...event, id: other.id } });
    }
    const now = nowSeconds();
    const expiredMark = marker('expired');
    const expired = sealRequest(client, target.adapter, KIND, call.payload(expiredMark), {
      created_at: now - 10,
      expiration: now - 2,
    });
    const replayMark = marker('replay');
    const replay = request(replayMark);

    const [forgedAnswers, expiredAnswer, firstReplay] = await Promise.all([
      Promise.all(forged.map((f) => inject(f.event))),
      inject(expired),
      inject(replay, 20_000),
    ]);
    forged.forEach((f, i) => {
      const exchange = forgedAnswers[i]!;
      context.expect(exchange.answer === undefined, {
        what: `an event ${f.label} is dropped without an answer`,
        sent: `${KIND} ${show(call.payload(f.mark))}, ${f.label}`,
        received: received(exchange),
        expected: 'no answer (docs/protocol.md §4, steps 1–3)',
      });
      context.expect((_count(context, f.mark) ?? 0) === 0, {
        what: `an event ${f.label} never reaches the MCP server`,
        sent: `${KIND} ${show(call.payload(f.mark))}`,
        received: `${_count(context, f.mark)} recorded calls`,
        expected: 'none',
      });
    });
    context.expect(expiredAnswer.answer === undefined || expiredAnswer.answer.kind === 'xp.error', {
      what: 'an expired request is refused',
      sent: `${KIND} with expiration ${now - 2} (now ${now})`,
      received: received(expiredAnswer),
      expected: 'xp.error EXPIRED, or no answer',
    });
    context.expect(!_count(context, expiredMark), {
      what: 'an expired request never reaches the MCP server',
      sent: `${KIND} ${show(call.payload(expiredMark))}, expired`,
      received: `${_count(context, expiredMark)} recorded calls`,
      expected: 'none',
    });
    // The replay: the same event again once the first copy was answered.
    const second = await inject(replay, 4000);
    const answers = new Set([...firstReplay.answers, ...second.answers].map((a) => a.id));
    context.expect(
      firstReplay.answer !== undefined && (_count(context, replayMark) ?? 1) === 1 && answers.size === 1,
      {
        what: 'a replayed event is not run twice',
        sent: `the same ${KIND} event (id ${replay.id.slice(0, 12)}…) twice`,
        received: `${answers.size} distinct answers, ${_count(context, replayMark)} recorded calls`,
        expected: 'one answer and one call',
      },
    );
    context.note(
      'tampered, wrong key, wrong id, expired and replayed events refused; answers signed and encrypted',
    );
  },
};
