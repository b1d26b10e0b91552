import type * as acp from '@agentclientprotocol/sdk';
import type {
  AgentCapabilitiesInfo,
  AgentCommand,
  ContentSummary,
  PermissionOption,
  SessionConfigOption,
  SessionMode,
  ToolContent,
  ToolKind,
  ToolLocation,
} from '../../../shared/contract';

/**
 * Conversions from ACP wire shapes (SDK 2.4.0 types) to the contract's display shapes. Every
 * function tolerates malformed input (agents are untrusted): missing fields become defaults,
 * oversized text is capped, nothing throws.
 */

/** Largest text kept per diff side / raw JSON field in a transcript item. */
export const MAX_DIFF_CHARS = 256 * 1024;
export const MAX_RAW_CHARS = 64 * 1024;

const TOOL_KINDS = new Set<ToolKind>(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A content block reduced for display (text kept, binary payloads dropped). */
export function summarizeContent(block: unknown): ContentSummary {
  const b = (block ?? {}) as Record<string, unknown>;
  const type = str(b.type) ?? 'unknown';
  if (type === 'resource') {
    const r = (b.resource ?? {}) as Record<string, unknown>;
    return { type, text: str(r.text)?.slice(0, MAX_RAW_CHARS) ?? null, mimeType: str(r.mimeType), uri: str(r.uri), name: null };
  }
  return { type, text: str(b.text), mimeType: str(b.mimeType), uri: str(b.uri), name: str(b.name) ?? str(b.title) };
}

/** The text of a content block ('' for non-text blocks). */
export function blockText(block: unknown): string {
  const b = (block ?? {}) as Record<string, unknown>;
  return b.type === 'text' && typeof b.text === 'string' ? b.text : '';
}

/** ACP tool kind, or `other` for anything unknown. */
export function toolKind(kind: unknown): ToolKind {
  return TOOL_KINDS.has(kind as ToolKind) ? (kind as ToolKind) : 'other';
}

/** Tool call locations with a string path (line kept when it is an integer). */
export function toolLocations(locations: unknown): ToolLocation[] {
  if (!Array.isArray(locations)) return [];
  return locations
    .filter((l) => l && typeof l.path === 'string')
    .map((l) => ({ path: l.path as string, line: Number.isInteger(l.line) ? (l.line as number) : null }));
}

/** Tool call content for display: text/diff/terminal entries; unknown entries dropped, diffs capped. */
export function toolContents(content: unknown): ToolContent[] {
  if (!Array.isArray(content)) return [];
  const out: ToolContent[] = [];
  for (const c of content as Array<Record<string, unknown>>) {
    if (!c || typeof c !== 'object') continue;
    if (c.type === 'diff' && typeof c.path === 'string') {
      const oldText = str(c.oldText);
      const newText = str(c.newText) ?? '';
      const truncated = (oldText?.length ?? 0) > MAX_DIFF_CHARS || newText.length > MAX_DIFF_CHARS;
      out.push({ type: 'diff', path: c.path, oldText: oldText === null ? null : oldText.slice(0, MAX_DIFF_CHARS), newText: newText.slice(0, MAX_DIFF_CHARS), truncated });
    } else if (c.type === 'terminal' && typeof c.terminalId === 'string') {
      out.push({ type: 'terminal', terminalId: c.terminalId });
    } else if (c.type === 'content') {
      out.push({ type: 'content', content: summarizeContent(c.content) });
    }
  }
  return out;
}

/** JSON text of a raw tool input/output, capped; null when absent. */
export function rawJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return null;
  }
  return text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text;
}

/** The agent's permission options; an unknown kind is treated as `reject_once` (never as an allow). */
export function permissionOptions(options: unknown): PermissionOption[] {
  if (!Array.isArray(options)) return [];
  const kinds = new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
  return options
    .filter((o) => o && typeof o.optionId === 'string')
    .map((o) => ({ optionId: o.optionId as string, name: str(o.name) ?? (o.optionId as string), kind: kinds.has(o.kind) ? o.kind : 'reject_once' }));
}

/** ACP mode state → the contract's modes, or null when absent or malformed. */
export function sessionModes(modes: acp.SessionModeState | null | undefined): { currentModeId: string; available: SessionMode[] } | null {
  if (!modes || typeof modes.currentModeId !== 'string' || !Array.isArray(modes.availableModes)) return null;
  return {
    currentModeId: modes.currentModeId,
    available: modes.availableModes.filter((m) => m && typeof m.id === 'string').map((m) => ({ id: m.id, name: str(m.name) ?? m.id, description: str(m.description) })),
  };
}

/** ACP config options → the contract's flat form (select groups flattened into `group`). */
export function configOptions(options: unknown): SessionConfigOption[] {
  if (!Array.isArray(options)) return [];
  const out: SessionConfigOption[] = [];
  for (const o of options as Array<Record<string, unknown>>) {
    if (!o || typeof o.id !== 'string') continue;
    const type = o.type === 'boolean' ? 'boolean' : 'select';
    const flat: SessionConfigOption['options'] = [];
    if (Array.isArray(o.options)) {
      for (const entry of o.options as Array<Record<string, unknown>>) {
        if (entry && Array.isArray(entry.options)) {
          for (const sub of entry.options as Array<Record<string, unknown>>) {
            if (sub && typeof sub.value === 'string') flat.push({ value: sub.value, name: str(sub.name) ?? sub.value, description: str(sub.description), group: str(entry.name) ?? str(entry.group) });
          }
        } else if (entry && typeof entry.value === 'string') {
          flat.push({ value: entry.value, name: str(entry.name) ?? entry.value, description: str(entry.description), group: null });
        }
      }
    }
    const current = type === 'boolean' ? Boolean(o.currentValue) : (str(o.currentValue) ?? '');
    out.push({ id: o.id, name: str(o.name) ?? o.id, description: str(o.description), category: str(o.category), type, currentValue: current, options: flat });
  }
  return out;
}

/** ACP available commands → name, description and input hint. */
export function agentCommands(commands: unknown): AgentCommand[] {
  if (!Array.isArray(commands)) return [];
  return commands
    .filter((c) => c && typeof c.name === 'string')
    .map((c) => ({ name: c.name as string, description: str(c.description) ?? '', hint: str(c.input?.hint) }));
}

/** What the agent advertised at `initialize`, flattened (presence of an object = supported). */
export function capabilities(init: acp.InitializeResponse): AgentCapabilitiesInfo {
  const caps = init.agentCapabilities ?? {};
  const sc = caps.sessionCapabilities ?? {};
  const has = (v: unknown) => v !== undefined && v !== null && v !== false;
  return {
    loadSession: caps.loadSession === true,
    resume: has(sc.resume),
    list: has(sc.list),
    close: has(sc.close),
    additionalDirectories: has(sc.additionalDirectories),
    image: caps.promptCapabilities?.image === true,
    audio: caps.promptCapabilities?.audio === true,
    embeddedContext: caps.promptCapabilities?.embeddedContext === true,
    agentName: str(init.agentInfo?.name),
    agentTitle: str(init.agentInfo?.title),
    agentVersion: str(init.agentInfo?.version),
    authMethods: (init.authMethods ?? []).filter((m) => m && typeof m.id === 'string').map((m) => ({ id: m.id, name: str(m.name) ?? m.id })),
  };
}
