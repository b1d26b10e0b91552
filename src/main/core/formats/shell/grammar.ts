import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

let loading: Promise<Parser> | null = null;

/**
 * Where tree-sitter-bash's grammar (`tree-sitter-bash.wasm`, tree-sitter-bash 0.25.1) lies: resolved
 * through the package's own `package.json`, so it is found from the sources (tsx, vitest) and from
 * the electron-vite build alike (main-process dependencies stay external, in node_modules).
 */
export function bashGrammarPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm');
}

/**
 * The one web-tree-sitter (0.25.10) parser with the bash grammar, initialised lazily on first use
 * and shared afterwards (`Parser.init` and `Language.load` are asynchronous and run once; parsing
 * itself is synchronous). Rejects only when the WASM files cannot be loaded; a later call retries.
 */
export function bashParser(): Promise<Parser> {
  if (!loading) {
    loading = (async () => {
      await Parser.init();
      const language = await Language.load(bashGrammarPath());
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
