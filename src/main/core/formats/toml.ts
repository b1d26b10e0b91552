import { parse, TomlError } from 'smol-toml';

/**
 * TOML (Codex `config.toml`, Gemini CLI command files), read with smol-toml; the one place that
 * turns its exceptions into a position and a message.
 */

/** A parsed TOML document: always a table at the top. */
export interface TomlOk {
  ok: true;
  value: Record<string, unknown>;
}

/** Why a TOML document does not parse, and where. */
export interface TomlFailure {
  ok: false;
  /** 1-based line of the error, or null when smol-toml did not say (an error that is not a `TomlError`). */
  line: number | null;
  /** 1-based column of the error, or null with `line`. */
  column: number | null;
  /** First line of smol-toml's message, as it wrote it (e.g. `Invalid TOML document: …`). */
  message: string;
  /** `message` without smol-toml's `Invalid TOML document:` prefix. */
  reason: string;
}

/** Parses `text` as TOML. Never throws. */
export function parseTomlText(text: string): TomlOk | TomlFailure {
  try {
    return { ok: true, value: parse(text) as Record<string, unknown> };
  } catch (error) {
    const toml = error instanceof TomlError;
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { ok: false, line: toml ? error.line : null, column: toml ? error.column : null, message, reason: message.replace(/^Invalid TOML document:\s*/, '') };
  }
}
