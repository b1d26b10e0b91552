import type { HookFormat } from '../../../shared/contract';
import type { HandlerFields } from './parse';

/**
 * Effective timeout of a handler in milliseconds, from the value written (seconds; Gemini CLI:
 * milliseconds) or the format's default: Claude Code (formats.md §2.5) 600 s for
 * command/http/mcp_tool, 30 s prompt, 60 s agent, 30 s on UserPromptSubmit, SessionEnd 1.5 s
 * (at most 60 s); Codex 600 s; Gemini CLI 60 s; Blade (seed-behaviour §9.1–9.2) the file's
 * `defaultTimeout` (60 s) and 10 s for http.
 */
export function effectiveTimeoutMs(format: HookFormat, fields: HandlerFields, event: string, bladeDefaultSec: number | undefined): number {
  const written = fields.timeout;
  if (format === 'gemini') return Math.round(written ?? 60_000);
  if (format === 'blade') return Math.round((written ?? (fields.type === 'http' ? 10 : (bladeDefaultSec ?? 60))) * 1000);
  if (format === 'codex') return Math.round((written ?? 600) * 1000);
  if (event === 'SessionEnd') return Math.round(Math.min(written ?? 1.5, 60) * 1000);
  if (written !== undefined) return Math.round(written * 1000);
  if (fields.type === 'prompt') return 30_000;
  if (fields.type === 'agent') return 60_000;
  if (event === 'UserPromptSubmit') return 30_000;
  return 600_000;
}
