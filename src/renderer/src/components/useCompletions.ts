import { useEffect, useState } from 'react';

/**
 * Completions for a text field, fetched 120 ms after the last keystroke (older answers are
 * dropped); `fetch` returns the candidates for a value, `null` fetches nothing. A failed fetch
 * yields no candidates. Used with a `<datalist>` (Test a path, Add workspace).
 */
export function useCompletions(value: string, fetch: ((value: string) => Promise<string[]>) | null): string[] {
  const [completions, setCompletions] = useState<string[]>([]);
  useEffect(() => {
    if (!fetch) return;
    let live = true;
    const handle = setTimeout(() => {
      fetch(value)
        .then((c) => live && setCompletions(c))
        .catch(() => live && setCompletions([]));
    }, 120);
    return () => {
      live = false;
      clearTimeout(handle);
    };
  }, [fetch, value]);
  return completions;
}
