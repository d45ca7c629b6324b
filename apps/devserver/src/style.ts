/**
 * Colour for people, decided per stream: on only when the stream is a TTY and `NO_COLOR` is unset
 * (STYLE.md habit 9). Without colour every helper returns its text unchanged.
 * @module
 */

/** Text decorations for one output stream. */
export interface Style {
  readonly color: boolean;
  ok(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/**
 * A {@link Style}; `color` defaults to: `stream` is a TTY and `NO_COLOR` is not set.
 * @example
 * createStyle(false).ok('✓'); // '✓'
 */
export function createStyle(
  color: boolean | { isTTY?: boolean } = process.stderr,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Style {
  const on = typeof color === 'boolean' ? color : color.isTTY === true && (env.NO_COLOR ?? '') === '';
  const wrap = (open: number, close: number) => (text: string) =>
    on ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return { color: on, ok: wrap(32, 39), bad: wrap(31, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
