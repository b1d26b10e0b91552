import { describe, it } from 'vitest';
import { hasCorpus, NO_CORPUS_REASON } from './corpus';

/**
 * `it` for tests that need the shared corpus: the real `it` when it is present, else `it.skip`
 * (the reason is printed once per test file), so a bare clone passes with the project's own fixtures.
 */
export const corpusIt: typeof it = hasCorpus ? it : (it.skip as typeof it);

/** `describe` for blocks that need the shared corpus (see {@link corpusIt}). */
export const corpusDescribe: typeof describe = hasCorpus ? describe : (describe.skip as typeof describe);

if (!hasCorpus) console.warn(`[atrium tests] corpus tests skipped: ${NO_CORPUS_REASON}`);
