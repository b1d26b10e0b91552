import { hasCorpus, NO_CORPUS_REASON } from './corpus';

/**
 * Vitest global setup (vitest.config.ts): one line at the start of a run on a checkout without the
 * shared corpus, saying that the tests needing it are skipped and why (each skipped test also carries
 * the reason as its note).
 */
export default function corpusNotice(): void {
  if (!hasCorpus) console.warn(`[atrium tests] corpus tests skipped (reported as skipped, the rest run on test/fixtures): ${NO_CORPUS_REASON}`);
}
