import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted recursively (by UTF-16 code unit, like `Array.prototype.sort`),
 * `undefined` members and array holes dropped (array `undefined` becomes `null`, as in JSON), no
 * whitespace. Two documents that differ only in key order or formatting produce the same text.
 * Non-JSON values (functions, symbols, bigint) are dropped like `undefined`.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** `value` with every object's keys sorted and `undefined` members dropped (a plain JSON tree). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (isDroppable(v) ? null : sortKeys(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (!isDroppable(v)) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

function isDroppable(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint';
}

/** Hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The digest format of hook and MCP server approvals: `"sha256:" +` hex SHA-256 of {@link canonicalJson}(value). */
export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}

/** A short stable id for a key: `prefix` + the first 12 hex characters of its SHA-256. */
export function shortId(prefix: 'h_' | 'm_', key: string): string {
  return `${prefix}${sha256Hex(key).slice(0, 12)}`;
}
