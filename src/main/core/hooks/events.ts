import type { HookEvent, HookFormat } from '../../../shared/contract';

const CLAUDE_EVENTS = [
  'SessionStart', 'Setup', 'UserPromptSubmit', 'UserPromptExpansion', 'PreToolUse', 'PermissionRequest', 'PermissionDenied',
  'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'MessageDisplay', 'SubagentStart', 'SubagentStop',
  'TaskCreated', 'TaskCompleted', 'Stop', 'StopFailure', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged',
  'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove', 'PreCompact', 'PostCompact', 'Elicitation',
  'ElicitationResult', 'SessionEnd',
] as const;

/**
 * Event names each format accepts (case-sensitive): Claude Code and plugins (formats.md §2.5),
 * Codex (§1.4), Gemini CLI (its hooks reference), Blade (seed-behaviour §9.1).
 */
export const FORMAT_EVENTS: Record<HookFormat, readonly string[]> = {
  claude: CLAUDE_EVENTS,
  plugin: CLAUDE_EVENTS,
  codex: ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SubagentStop', 'Stop', 'SessionStart', 'SubagentStart', 'SessionEnd'],
  gemini: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'SessionStart', 'SessionEnd', 'Notification', 'PreCompress'],
  blade: [
    'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Elicitation', 'ElicitationResult', 'UserPromptSubmit',
    'SessionStart', 'SessionEnd', 'Stop', 'SubagentStop', 'Notification', 'Compaction',
  ],
};

/**
 * The dialects the hooks parser reads: the hook formats Atrium runs (`HookFormat`), plus Cursor's
 * `.cursor/hooks.json`. Atrium never runs Cursor hooks (there is no Cursor `HookFormat`, so the
 * listing never holds one), but the trust review lists them from this parser.
 */
export type HookDialect = HookFormat | 'cursor';

/**
 * The event names a dialect accepts, or null when they are not checked: Cursor's event names
 * are shown as written (Atrium keeps no list of them, and no name of theirs fires in Atrium).
 */
export function dialectEvents(dialect: HookDialect): readonly string[] | null {
  return dialect === 'cursor' ? null : FORMAT_EVENTS[dialect];
}

/** Events Atrium fires today, in display order. */
export const ATRIUM_EVENTS: readonly HookEvent[] = [
  'SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'Stop', 'SessionEnd',
];

/** Gemini CLI's names for the events Atrium fires. */
const GEMINI_TO_ATRIUM: Record<string, HookEvent> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
};

/** The Atrium event a hook written for `event` in `format` fires on, or null when Atrium does not fire it (yet; never for Cursor). */
export function atriumEventOf(format: HookDialect, event: string): HookEvent | null {
  if (format === 'cursor') return null;
  if (format === 'gemini') return GEMINI_TO_ATRIUM[event] ?? null;
  return (ATRIUM_EVENTS as readonly string[]).includes(event) ? (event as HookEvent) : null;
}

/** Events whose matcher is tested against the tool name (`tool_name` of the input). */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);

/**
 * The input field a matcher is tested against for each event (formats.md §2.5 "Matched field per
 * event"); events without one ignore their matcher (UserPromptSubmit, Stop).
 */
export function matchedValue(event: HookEvent, input: Record<string, unknown>): string | undefined {
  const pick = (...keys: string[]) => {
    for (const k of keys) if (typeof input[k] === 'string') return input[k] as string;
    return '';
  };
  if (TOOL_EVENTS.has(event)) return pick('tool_name');
  if (event === 'SessionStart') return pick('source');
  if (event === 'SessionEnd') return pick('reason');
  if (event === 'Notification') return pick('notification_type');
  return undefined;
}

/** Tool names a matcher is checked against for "can never match" warnings (Claude Code's built-in tools; Gemini CLI's). */
export const KNOWN_TOOLS: Record<'claude' | 'gemini', readonly string[]> = {
  claude: [
    'Agent', 'Task', 'Bash', 'BashOutput', 'KillShell', 'Glob', 'Grep', 'LS', 'Read', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit',
    'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'ExitPlanMode', 'Skill', 'SlashCommand', 'AskUserQuestion', 'ApplyPatch',
  ],
  gemini: [
    'run_shell_command', 'write_file', 'replace', 'read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content',
    'web_fetch', 'google_web_search', 'save_memory', 'write_todos',
  ],
};
