/**
 * The endpoint's guidance for models, sent in its catalog's first page (docs/protocol.md §10.8):
 * each wrapped server's `instructions` — the operator's `mcp_sources[].instructions` when
 * configured, else the server's own from `initialize`, left out when description linting flags
 * them (unless the source says `description_lint: warn`) — under a `### <source>` heading,
 * trimmed, bounded (each server's, and the whole at `ENDPOINT_INSTRUCTIONS_LIMIT` characters) and
 * without a repeated sentence. A face that lists the endpoint's tools puts
 * them in its own instructions.
 * @module
 */
import { composeSourceSections, ENDPOINT_INSTRUCTIONS_LIMIT, ListingScreen } from '@xprotocol/mcp-bridge';
import type { McpSourceConfig } from '../config/index.js';
import type { AdapterLogger } from './logger.js';

/** The endpoint's instructions, screened once per distinct text of each source. */
export class EndpointInstructions {
  readonly #sources: readonly McpSourceConfig[];
  readonly #screens = new Map<string, ListingScreen>();

  constructor(sources: readonly McpSourceConfig[], logger: AdapterLogger) {
    this.#sources = sources;
    for (const source of sources) {
      this.#screens.set(
        source.name,
        new ListingScreen({ source: source.name, mode: source.descriptionLint, logger }),
      );
    }
  }

  /** The text for the catalog's first page, given each server's own instructions; none when no source has any. */
  text(serverInstructions: (source: string) => string | undefined): string | undefined {
    const text = composeSourceSections(
      this.#sources.map((source) => ({
        name: source.name,
        prefix: '',
        text:
          source.instructions ??
          this.#screens.get(source.name)?.instructions(serverInstructions(source.name)),
      })),
      '###',
      ENDPOINT_INSTRUCTIONS_LIMIT,
    );
    return text === '' ? undefined : text;
  }
}
