// The types of frame-runner.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * @param {string} url
 * @param {Record<string, unknown>} testCase one element of `cases`
 * @param {{ keys: Record<string, { secret_key: string }>, run: string, retention: number }} file
 * @returns {Promise<string[]>} the mismatches (empty when the relay did exactly what the case says)
 */
export function runFrameCase(
  url: string,
  testCase: Record<string, unknown>,
  file: {
    keys: Record<
      string,
      {
        secret_key: string;
      }
    >;
    run: string;
    retention: number;
  },
): Promise<string[]>;
