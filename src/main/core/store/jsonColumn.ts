/**
 * Reads a JSON text column: the parsed value, or `fallback` when the column is NULL or its text is
 * not valid JSON (a corrupt row reads as empty instead of failing the whole listing). The value is
 * not validated against `T`; callers store only what they wrote themselves.
 */
export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
