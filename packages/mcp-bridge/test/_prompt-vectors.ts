/**
 * Builds testdata/vectors/xp-prompts.json (docs/protocol.md §10.1, §10.11). Every expected outcome
 * is written here by hand from the document (kinds, collisions, the MCP request of each payload,
 * URI expansions: RFC 6570 §3.2's own examples); only the contracts' canonical bytes come from
 * `translateSource`, the product itself, and `contract_core` was read against §10.11 when written.
 * `prompt-vectors.test.ts` holds the file to this output (regenerate with `npx vitest run -u
 * test/prompt-vectors.test.ts`, then `node scripts/testdata-manifest.mjs`) and checks every case.
 * @module
 */
import { type SchemaContract, serializeContract, translateSource } from '@xprotocol/translate';

const DESCRIPTION =
  'Prompt contracts and resource-template contracts (docs/protocol.md §10.11) and the kind naming rule (docs/protocol.md §10.1). kind_naming: an MCP name of a tool, prompt or resource template → its kind and answer kind, or refused. collisions: what a source lists → the kinds published and the entries refused (code). contracts: an MCP prompt or resource template → its contract in canonical JSON; contract_core leaves out semantic, gbnf_grammar and gbnf_status, which an implementation derives with its own annotator and grammar compiler, and is what another implementation must reproduce byte for byte. requests: a request payload → the MCP request the endpoint sends upstream. uri_templates: RFC 6570 templates → their variables (required unless only in a query form) and the expansion with values {var: "value", hello: "Hello World!", path: "/foo/bar", empty: "", x: "1024", y: "768", title: "a b"}, or refused.';

const URI_TEMPLATE_VALUES = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  empty: '',
  x: '1024',
  y: '768',
  title: 'a b',
};

const KIND_NAMING = [
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'read_note',
    kind: 'com.acme.notes.read_note',
    answer_kind: 'com.acme.notes.read_note.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'read-note',
    kind: 'com.acme.notes.read-note',
    answer_kind: 'com.acme.notes.read-note.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'files/read.v2',
    kind: 'com.acme.notes.files_read_v2',
    answer_kind: 'com.acme.notes.files_read_v2.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'a.b/c',
    kind: 'com.acme.notes.a_b_c',
    answer_kind: 'com.acme.notes.a_b_c.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'prompt',
    kind: 'com.acme.notes.prompt_',
    answer_kind: 'com.acme.notes.prompt_.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'resource',
    kind: 'com.acme.notes.resource_',
    answer_kind: 'com.acme.notes.resource_.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'result',
    kind: 'com.acme.notes.result_',
    answer_kind: 'com.acme.notes.result_.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'Result',
    kind: 'com.acme.notes.Result',
    answer_kind: 'com.acme.notes.Result.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'prompts',
    kind: 'com.acme.notes.prompts',
    answer_kind: 'com.acme.notes.prompts.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'result_',
    kind: 'com.acme.notes.result_',
    answer_kind: 'com.acme.notes.result_.result',
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'read note',
    refused: true,
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'héllo',
    refused: true,
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: 'a:b',
    refused: true,
  },
  {
    entry: 'tool',
    namespace: 'com.acme.notes',
    name: '',
    refused: true,
  },
  {
    entry: 'tool',
    namespace: 'a',
    name: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    kind: 'a.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    answer_kind:
      'a.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.result',
  },
  {
    entry: 'tool',
    namespace: 'a',
    name: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    refused: true,
  },
  {
    entry: 'prompt',
    namespace: 'com.acme.notes',
    name: 'summarize',
    kind: 'com.acme.notes.prompt.summarize',
    answer_kind: 'com.acme.notes.prompt.summarize.result',
  },
  {
    entry: 'prompt',
    namespace: 'com.acme.notes',
    name: 'result',
    kind: 'com.acme.notes.prompt.result_',
    answer_kind: 'com.acme.notes.prompt.result_.result',
  },
  {
    entry: 'prompt',
    namespace: 'com.acme.notes',
    name: 'prompt',
    kind: 'com.acme.notes.prompt.prompt_',
    answer_kind: 'com.acme.notes.prompt.prompt_.result',
  },
  {
    entry: 'prompt',
    namespace: 'com.acme.notes',
    name: 'sum.mary',
    kind: 'com.acme.notes.prompt.sum_mary',
    answer_kind: 'com.acme.notes.prompt.sum_mary.result',
  },
  {
    entry: 'prompt',
    namespace: 'com.acme.notes',
    name: 'sum mary',
    refused: true,
  },
  {
    entry: 'resource_template',
    namespace: 'com.acme.notes',
    name: 'note',
    kind: 'com.acme.notes.resource.note',
    answer_kind: 'com.acme.notes.resource.note.result',
  },
  {
    entry: 'resource_template',
    namespace: 'com.acme.notes',
    name: 'result',
    kind: 'com.acme.notes.resource.result_',
    answer_kind: 'com.acme.notes.resource.result_.result',
  },
  {
    entry: 'resource_template',
    namespace: 'com.acme.notes',
    name: 'resource',
    kind: 'com.acme.notes.resource.resource_',
    answer_kind: 'com.acme.notes.resource.resource_.result',
  },
];

const COLLISIONS = [
  {
    what: 'a tool named result is renamed result_ and loses that kind to a tool really named result_',
    namespace: 'com.acme.notes',
    input: {
      tools: [
        {
          name: 'result',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
        {
          name: 'result_',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
      ],
      prompts: [],
      resource_templates: [],
    },
    published: [
      {
        entry: 'tool',
        name: 'result_',
        kind: 'com.acme.notes.result_',
        answer_kind: 'com.acme.notes.result_.result',
      },
    ],
    refused: [
      {
        entry: 'tool',
        name: 'result',
        code: 'NAME_COLLISION',
      },
    ],
  },
  {
    what: 'a tool named prompt and a prompt named result: four distinct kinds',
    namespace: 'com.acme.notes',
    input: {
      tools: [
        {
          name: 'prompt',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
      ],
      prompts: [
        {
          name: 'result',
          description: 'Read the record named by the path. Use when the agent needs one record.',
        },
      ],
      resource_templates: [],
    },
    published: [
      {
        entry: 'prompt',
        name: 'result',
        kind: 'com.acme.notes.prompt.result_',
        answer_kind: 'com.acme.notes.prompt.result_.result',
      },
      {
        entry: 'tool',
        name: 'prompt',
        kind: 'com.acme.notes.prompt_',
        answer_kind: 'com.acme.notes.prompt_.result',
      },
    ],
    refused: [],
  },
  {
    what: 'names that map to one kind: the unmapped name keeps it',
    namespace: 'com.acme.notes',
    input: {
      tools: [
        {
          name: 'a.b',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
        {
          name: 'a_b',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
      ],
      prompts: [],
      resource_templates: [],
    },
    published: [
      {
        entry: 'tool',
        name: 'a_b',
        kind: 'com.acme.notes.a_b',
        answer_kind: 'com.acme.notes.a_b.result',
      },
    ],
    refused: [
      {
        entry: 'tool',
        name: 'a.b',
        code: 'NAME_COLLISION',
      },
    ],
  },
  {
    what: 'names that map to one kind, none unmapped: all refused',
    namespace: 'com.acme.notes',
    input: {
      tools: [
        {
          name: 'a.b',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
        {
          name: 'a/b',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
      ],
      prompts: [],
      resource_templates: [],
    },
    published: [],
    refused: [
      {
        entry: 'tool',
        name: 'a.b',
        code: 'NAME_COLLISION',
      },
      {
        entry: 'tool',
        name: 'a/b',
        code: 'NAME_COLLISION',
      },
    ],
  },
  {
    what: 'prompts settle collisions among themselves by the same rule',
    namespace: 'com.acme.notes',
    input: {
      tools: [],
      prompts: [
        {
          name: 'x.y',
          description: 'Read the record named by the path. Use when the agent needs one record.',
        },
        {
          name: 'x_y',
          description: 'Read the record named by the path. Use when the agent needs one record.',
        },
      ],
      resource_templates: [],
    },
    published: [
      {
        entry: 'prompt',
        name: 'x_y',
        kind: 'com.acme.notes.prompt.x_y',
        answer_kind: 'com.acme.notes.prompt.x_y.result',
      },
    ],
    refused: [
      {
        entry: 'prompt',
        name: 'x.y',
        code: 'NAME_COLLISION',
      },
    ],
  },
  {
    what: 'a tool, a prompt and a resource template of one name never collide',
    namespace: 'com.acme.notes',
    input: {
      tools: [
        {
          name: 'note',
          description: 'Read the record named by the path. Use when the agent needs one record.',
          inputSchema: {
            type: 'object',
          },
        },
      ],
      prompts: [
        {
          name: 'note',
          description: 'Read the record named by the path. Use when the agent needs one record.',
        },
      ],
      resource_templates: [
        {
          name: 'note',
          uriTemplate: 'notes://{title}',
          description: 'Read the record named by the path. Use when the agent needs one record.',
        },
      ],
    },
    published: [
      {
        entry: 'tool',
        name: 'note',
        kind: 'com.acme.notes.note',
        answer_kind: 'com.acme.notes.note.result',
      },
      {
        entry: 'prompt',
        name: 'note',
        kind: 'com.acme.notes.prompt.note',
        answer_kind: 'com.acme.notes.prompt.note.result',
      },
      {
        entry: 'resource_template',
        name: 'note',
        kind: 'com.acme.notes.resource.note',
        answer_kind: 'com.acme.notes.resource.note.result',
      },
    ],
    refused: [],
  },
];

const CONTRACT_INPUTS = [
  {
    what: 'a prompt with a required and an optional argument',
    server: 'notes',
    namespace: 'com.acme.notes',
    adapter_version: '0.1.0',
    entry: 'prompt',
    input: {
      name: 'summarize_note',
      title: 'Summarize a note',
      description: 'Ask for a short summary of one note, given its title.',
      arguments: [
        {
          name: 'title',
          description: 'The exact title of the note',
          required: true,
        },
        {
          name: 'style',
        },
      ],
    },
  },
  {
    what: 'a prompt without arguments',
    server: 'notes',
    namespace: 'com.acme.notes',
    adapter_version: '0.1.0',
    entry: 'prompt',
    input: {
      name: 'daily_digest',
      description: 'Ask for a digest of the notes changed today.',
    },
  },
  {
    what: 'a resource template with a path variable and an optional query variable',
    server: 'notes',
    namespace: 'com.acme.notes',
    adapter_version: '0.1.0',
    entry: 'resource_template',
    input: {
      name: 'note',
      uriTemplate: 'notes://{title}{?lang}',
      description: 'The text of one note, named by its exact title.',
      mimeType: 'text/plain',
    },
  },
] as const;

const REQUESTS = [
  {
    what: 'a prompt request: the payload becomes the arguments',
    kind: 'com.acme.notes.prompt.summarize_note',
    entry: 'prompt',
    mcp_name: 'summarize_note',
    payload: {
      title: 'Groceries',
    },
    upstream: {
      method: 'prompts/get',
      params: {
        name: 'summarize_note',
        arguments: {
          title: 'Groceries',
        },
      },
    },
  },
  {
    what: 'a prompt without arguments',
    kind: 'com.acme.notes.prompt.daily_digest',
    entry: 'prompt',
    mcp_name: 'daily_digest',
    payload: {},
    upstream: {
      method: 'prompts/get',
      params: {
        name: 'daily_digest',
        arguments: {},
      },
    },
  },
  {
    what: 'a renamed prompt is asked for by its MCP name',
    kind: 'com.acme.notes.prompt.result_',
    entry: 'prompt',
    mcp_name: 'result',
    payload: {},
    upstream: {
      method: 'prompts/get',
      params: {
        name: 'result',
        arguments: {},
      },
    },
  },
  {
    what: 'a read: the template expanded with the payload',
    kind: 'com.acme.notes.resource.note',
    entry: 'resource_template',
    mcp_name: 'note',
    uri_template: 'notes://{title}{?lang}',
    payload: {
      title: 'Groceries',
    },
    upstream: {
      method: 'resources/read',
      params: {
        uri: 'notes://Groceries',
      },
    },
  },
  {
    what: 'values are percent-encoded as UTF-8; a query variable given',
    kind: 'com.acme.notes.resource.note',
    entry: 'resource_template',
    mcp_name: 'note',
    uri_template: 'notes://{title}{?lang}',
    payload: {
      title: 'a b/ü',
      lang: 'en',
    },
    upstream: {
      method: 'resources/read',
      params: {
        uri: 'notes://a%20b%2F%C3%BC?lang=en',
      },
    },
  },
];

const URI_TEMPLATES = [
  {
    template: '{var}',
    variables: [
      {
        name: 'var',
        required: true,
      },
    ],
    uri: 'value',
  },
  {
    template: '{hello}',
    variables: [
      {
        name: 'hello',
        required: true,
      },
    ],
    uri: 'Hello%20World%21',
  },
  {
    template: '{+hello}',
    variables: [
      {
        name: 'hello',
        required: true,
      },
    ],
    uri: 'Hello%20World!',
  },
  {
    template: '{+path}/here',
    variables: [
      {
        name: 'path',
        required: true,
      },
    ],
    uri: '/foo/bar/here',
  },
  {
    template: '{#path,x}/here',
    variables: [
      {
        name: 'path',
        required: true,
      },
      {
        name: 'x',
        required: true,
      },
    ],
    uri: '#/foo/bar,1024/here',
  },
  {
    template: 'X{.var}',
    variables: [
      {
        name: 'var',
        required: true,
      },
    ],
    uri: 'X.value',
  },
  {
    template: '{/var,x}/here',
    variables: [
      {
        name: 'var',
        required: true,
      },
      {
        name: 'x',
        required: true,
      },
    ],
    uri: '/value/1024/here',
  },
  {
    template: '{;x,y,empty}',
    variables: [
      {
        name: 'x',
        required: true,
      },
      {
        name: 'y',
        required: true,
      },
      {
        name: 'empty',
        required: true,
      },
    ],
    uri: ';x=1024;y=768;empty',
  },
  {
    template: '{?x,y,empty}',
    variables: [
      {
        name: 'x',
        required: false,
      },
      {
        name: 'y',
        required: false,
      },
      {
        name: 'empty',
        required: false,
      },
    ],
    uri: '?x=1024&y=768&empty=',
  },
  {
    template: '?fixed=yes{&x}',
    variables: [
      {
        name: 'x',
        required: false,
      },
    ],
    uri: '?fixed=yes&x=1024',
  },
  {
    template: '{var:3}',
    variables: [
      {
        name: 'var',
        required: true,
      },
    ],
    uri: 'val',
  },
  {
    template: '{?undef}',
    variables: [
      {
        name: 'undef',
        required: false,
      },
    ],
    uri: '',
  },
  {
    template: 'notes://{title}{?lang}',
    variables: [
      {
        name: 'title',
        required: true,
      },
      {
        name: 'lang',
        required: false,
      },
    ],
    uri: 'notes://a%20b',
  },
  {
    template: 'notes://{title',
    refused: true,
  },
  {
    template: 'notes://a}',
    refused: true,
  },
  {
    template: 'notes://{a b}',
    refused: true,
  },
  {
    template: 'notes://{}',
    refused: true,
  },
];

/** The contract of one entry, in canonical JSON, whole and without what an implementation derives. */
function _contract(input: (typeof CONTRACT_INPUTS)[number]): { contract_core: string; contract: string } {
  const out = translateSource({
    name: input.server,
    namespace: input.namespace,
    adapterVersion: input.adapter_version,
    tools: [],
    prompts: input.entry === 'prompt' ? [input.input] : [],
    resourceTemplates: input.entry === 'resource_template' ? [input.input] : [],
  });
  const contract = out.contracts[0] as SchemaContract;
  const { semantic: _s, gbnf_grammar: _g, gbnf_status: _t, ...core } = contract;
  return { contract_core: serializeContract(core as SchemaContract), contract: serializeContract(contract) };
}

/** The file's text. */
export function promptVectorsText(): string {
  const vectors = {
    description: DESCRIPTION,
    uri_template_values: URI_TEMPLATE_VALUES,
    kind_naming: KIND_NAMING,
    collisions: COLLISIONS,
    contracts: CONTRACT_INPUTS.map((input) => ({ ...input, ..._contract(input) })),
    requests: REQUESTS,
    uri_templates: URI_TEMPLATES,
  };
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
