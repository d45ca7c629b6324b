/**
 * Optional check 14: MCP prompts and resource templates in the catalog (docs/protocol.md §10.11).
 * The test server lists the prompt `summarize_note` and the resource template `note`
 * (`notes://{title}`); an adapter that translates them publishes `conf.test.prompt.summarize_note`
 * and `conf.test.resource.note`, answers each with what the server returned for the same
 * arguments, and refuses a key without the grant before the server hears of it. No prompt
 * contract in the catalog: the behaviour is absent. The resource template is checked when its
 * contract is there, and noted when it is not.
 * @module
 */
import { type Check, type CheckContext, show } from '../check.js';
import { noteText, promptText, TEST_NAMESPACE, TEST_PROMPT, TEST_RESOURCE_TEMPLATE } from '../test-tools.js';
import { errorCode, marker, received } from './_answers.js';

const PROMPT_KIND = `${TEST_NAMESPACE}.prompt.${TEST_PROMPT.name}`;
const TEMPLATE_KIND = `${TEST_NAMESPACE}.resource.${TEST_RESOURCE_TEMPLATE.name}`;

export const promptsResources: Check = {
  name: 'prompts-resources',
  number: 14,
  title: 'MCP prompts and resource templates as schema contracts',
  optional: 'MCP resources and prompts translation',
  async run(context) {
    const catalog = await context.facts.catalog();
    const prompt = catalog.find((c) => c.kind === PROMPT_KIND);
    if (!prompt) {
      context.absent(
        `the catalog has no ${PROMPT_KIND} (the test server lists the prompt ${TEST_PROMPT.name})`,
      );
      return;
    }
    _checkContract(context, prompt, PROMPT_KIND, 'title', true);
    await _callPrompt(context);
    const template = catalog.find((c) => c.kind === TEMPLATE_KIND);
    if (!template) {
      context.note(`no ${TEMPLATE_KIND} in the catalog: resource templates are not translated`);
      return;
    }
    _checkContract(context, template, TEMPLATE_KIND, 'title', true);
    const uriTemplate = (template.source as { uri_template?: unknown } | undefined)?.uri_template;
    context.expect(uriTemplate === TEST_RESOURCE_TEMPLATE.uriTemplate, {
      what: 'the resource-template contract keeps its URI template',
      sent: 'xp.schema.catalog',
      received: `source.uri_template ${show(uriTemplate)}`,
      expected: JSON.stringify(TEST_RESOURCE_TEMPLATE.uriTemplate),
    });
    await _readTemplate(context);
  },
};

/** The contract's payload takes `variable` as a string (required or not) and its answer kind is `{kind}.result`. */
function _checkContract(
  context: CheckContext,
  contract: Record<string, unknown>,
  kind: string,
  variable: string,
  required: boolean,
): void {
  const payload = contract.payload as
    | { properties?: Record<string, { type?: unknown }>; required?: unknown }
    | undefined;
  const response = contract.response as { kind?: unknown } | undefined;
  const needs = Array.isArray(payload?.required) && payload.required.includes(variable);
  context.expect(payload?.properties?.[variable]?.type === 'string' && needs === required, {
    what: `${kind}: the payload takes ${variable} as a ${required ? 'required ' : ''}string`,
    sent: 'xp.schema.catalog',
    received: `payload ${show(payload)}`,
    expected: `properties.${variable}: {type: "string"}${required ? `, required: ["${variable}"]` : ''}`,
  });
  context.expect(response?.kind === `${kind}.result`, {
    what: `${kind}: the answer kind is the request kind + ".result"`,
    sent: 'xp.schema.catalog',
    received: `response.kind ${show(response?.kind)}`,
    expected: `${kind}.result`,
  });
}

/** The prompt answered with the server's messages for the same title; a stranger refused unheard. */
async function _callPrompt(context: CheckContext): Promise<void> {
  const { target } = context;
  const title = marker('prompt');
  const stranger = marker('prompt-stranger');
  const [ok, refused] = await Promise.all([
    target.xp.call(target.keys.client, target.adapter, PROMPT_KIND, { title }),
    target.xp.call(target.keys.stranger, target.adapter, PROMPT_KIND, { title: stranger }),
  ]);
  const text = (ok.payload as { messages?: { content?: { text?: unknown } }[] } | undefined)?.messages?.[0]
    ?.content?.text;
  if (
    context.expect(ok.answer?.kind === `${PROMPT_KIND}.result` && text === promptText(title), {
      what: 'the prompt contract is answered with the prompts/get result for its arguments',
      sent: `${PROMPT_KIND} {title: ${JSON.stringify(title)}} from the granted client key`,
      received: received(ok),
      expected: `${PROMPT_KIND}.result whose messages[0].content.text is ${JSON.stringify(promptText(title))}`,
    })
  )
    context.note(`${PROMPT_KIND} answered with the server's prompt text`);
  context.expect(errorCode(refused) === 'AUTHORIZATION_INSUFFICIENT' && target.reached(stranger) !== true, {
    what: 'a key without the grant is refused and the server never sees the request',
    sent: `${PROMPT_KIND} from a key with no grant`,
    received: `${received(refused)}; the server recorded it: ${String(target.reached(stranger))}`,
    expected: 'xp.error AUTHORIZATION_INSUFFICIENT, and no prompts/get recorded',
  });
}

/** The template read at the URI it expands to, answered with the server's contents. */
async function _readTemplate(context: CheckContext): Promise<void> {
  const { target } = context;
  const title = `${marker('note')} / ü`;
  const uri = `notes://${encodeURIComponent(title)}`;
  const read = await target.xp.call(target.keys.client, target.adapter, TEMPLATE_KIND, { title });
  const contents = (read.payload as { contents?: { uri?: unknown; text?: unknown }[] } | undefined)?.contents;
  if (
    context.expect(
      read.answer?.kind === `${TEMPLATE_KIND}.result` &&
        contents?.[0]?.uri === uri &&
        contents[0].text === noteText(uri),
      {
        what: 'the resource-template contract reads the URI the template expands to (RFC 6570)',
        sent: `${TEMPLATE_KIND} {title: ${JSON.stringify(title)}}`,
        received: received(read),
        expected: `${TEMPLATE_KIND}.result whose contents[0] is {uri: ${JSON.stringify(uri)}, text: ${JSON.stringify(noteText(uri))}}`,
      },
    )
  )
    context.note(`${TEMPLATE_KIND} read ${uri}`);
}
