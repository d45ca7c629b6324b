/**
 * The one wrapper around node-llama-cpp (tests only): llama.cpp's own GBNF parser and its
 * full-string matcher, loaded from the pinned prebuilt `@node-llama-cpp/linux-x64` binary with no
 * model, no GPU, no build and no download.
 *
 * `LlamaGrammar._testText(text)` is node-llama-cpp's internal API (AddonGrammar::isTextCompatible:
 * it feeds each code point to `llama_grammar_accept` and reports whether a stack is empty at the
 * end). It is wrapped here and only here; test/llama-support.test.ts proves it accepts and rejects.
 */
import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp';

process.env.NODE_LLAMA_CPP_SKIP_DOWNLOAD = 'true';

let instance: Promise<Llama> | undefined;
const logs: string[] = [];

/** The llama instance, loaded once per test file (module). */
export function loadLlama(): Promise<Llama> {
  instance ??= getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    maxThreads: 1,
    logLevel: LlamaLogLevel.error,
    logger: (_level, message) => {
      logs.push(message);
      if (logs.length > 100) logs.shift();
    },
  });
  return instance;
}

/** llama.cpp's verdict on a grammar: a matcher for full strings, or its refusal. */
export type LlamaVerdict =
  | { readonly ok: true; readonly test: (text: string) => boolean }
  | { readonly ok: false; readonly error: string };

interface InternalGrammar {
  _testText(text: string): boolean;
}

function hasTestText(value: unknown): value is InternalGrammar {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { _testText?: unknown })._testText === 'function'
  );
}

/**
 * Parses `gbnf` with llama.cpp (`llama.createGrammar`). On success, `test(text)` runs llama.cpp's
 * full-string matcher. Never call it with a grammar our parser flags as looping forever (see
 * src/grammar/validate.ts): llama.cpp would hang.
 */
export async function llamaGrammar(gbnf: string): Promise<LlamaVerdict> {
  const llama = await loadLlama();
  const before = logs.length;
  try {
    const grammar = await llama.createGrammar({ grammar: gbnf });
    if (!hasTestText(grammar)) {
      throw new Error('node-llama-cpp LlamaGrammar has no _testText(): the pinned version changed');
    }
    return { ok: true, test: (text: string) => grammar._testText(text) };
  } catch (error) {
    const log = logs.slice(before).join(' ').trim();
    return { ok: false, error: `${(error as Error).message}${log ? `: ${log}` : ''}` };
  }
}
