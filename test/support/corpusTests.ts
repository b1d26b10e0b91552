import { describe, it, type TestContext } from 'vitest';
import { hasCorpus, materialize, NO_CORPUS_REASON } from './corpus';
import { kitchenSinkWorkspace } from './fixtures';

type Options = Parameters<typeof it>[1];

/** A test that vitest reports as skipped with {@link NO_CORPUS_REASON} as its note (`ctx.skip(note)`). */
const skipWithReason = (ctx: TestContext) => ctx.skip(NO_CORPUS_REASON);
const optionsOf = (optionsOrFn: unknown) => (optionsOrFn && typeof optionsOrFn === 'object' ? (optionsOrFn as Options) : undefined);

function absentIt(name: string, optionsOrFn?: unknown) {
  it(name, optionsOf(optionsOrFn) ?? {}, skipWithReason);
}
absentIt.each = (cases: readonly unknown[]) => (name: string, optionsOrFn?: unknown) =>
  it.for(cases as unknown[])(name, optionsOf(optionsOrFn) ?? {}, (_case, ctx) => skipWithReason(ctx));

function absentDescribe(name: string) {
  // The block's body (and its beforeAll, which would materialize corpus entries) never runs: one
  // skipped test stands for it, carrying the reason.
  describe(name, () => {
    it('needs the shared corpus', skipWithReason);
  });
}

/**
 * `it` for tests that need the shared corpus: the real `it` when it is present; else each test (and
 * each case of `corpusIt.each`) is reported as skipped with the reason as its note, so a bare clone
 * passes with the project's own fixtures and the skip is never silent. Supports `(name, fn)`,
 * `(name, options, fn)` and `.each(cases)(…)`.
 */
export const corpusIt: typeof it = hasCorpus ? it : (absentIt as unknown as typeof it);

/**
 * `describe` for blocks that need the shared corpus (see {@link corpusIt}): without it the block is one
 * skipped test "needs the shared corpus" carrying the reason, and its body is not run.
 */
export const corpusDescribe: typeof describe = hasCorpus ? describe : (absentDescribe as unknown as typeof describe);

/**
 * The kitchen-sink workspace from both places, for tests that check it: the project's own files
 * ({@link kitchenSinkWorkspace}, run everywhere) and the corpus entry `synthetic__kitchen-sink`
 * (run with {@link corpusIt}, so skipped with the reason when the corpus is absent). Both hold the
 * same files; `make(parent)` lays one down in a new folder under `parent` (a temp dir when omitted).
 */
export const KITCHEN_SINK_SOURCES = [
  { name: 'kitchen sink (fixture)', it: it as typeof it, make: (parent?: string) => kitchenSinkWorkspace(parent) },
  { name: 'kitchen sink (corpus)', it: corpusIt, make: (parent?: string) => materialize('synthetic__kitchen-sink', parent) },
] as const;
