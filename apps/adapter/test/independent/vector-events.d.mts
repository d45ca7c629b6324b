// The types of vector-events.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Replaces `{run}`, `{live}`, `{NAME}` and `{NAME.member}` in a frame or a string.
 *
 * @param {string} text @param {Record<string, string>} values
 */
export function fillPlaceholders(text: string, values: Record<string, string>): string;
/**
 * Signs one vector event and returns its placeholder values: `{NAME}` (as written in a frame),
 * `{NAME.delivered}`, `.id`, `.sig`, `.pubkey`, `.id_prefix`, `.id_upper`, and the signed event.
 *
 * @param {string} name
 * @param {Record<string, unknown>} spec the event's fields, as `event_fields` describes them
 * @param {{ keys: Record<string, { secret_key: string }>, now: number, retention: number, values: Record<string, string> }} ctx
 */
export function vectorEvent(
  name: string,
  spec: Record<string, unknown>,
  ctx: {
    keys: Record<
      string,
      {
        secret_key: string;
      }
    >;
    now: number;
    retention: number;
    values: Record<string, string>;
  },
): {
  event: import('./event.mjs').XpEvent;
  values: {
    [x: string]: string;
  };
};
export function randomTag(): string;
