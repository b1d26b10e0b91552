import type { TrustWarning } from '../../../../shared/contract';
import type { ReviewCollector } from './collector';
import { commandRiskWarnings, eventNotice } from './risk';
import { redactUrl } from '../../formats/maskValues';
import { commandLine, isRecord, oneLine, str, strings } from '../../formats/text';

/** Hook dialects: the Claude-style shape (Claude, Codex, Gemini, plugins), Blade's and Cursor's. */
export type HookDialect = 'claude' | 'codex' | 'gemini' | 'blade' | 'cursor' | 'plugin';

/** Event names per dialect (formats.md §1.4, §2.5; seed-behaviour §9.1; Gemini CLI hooks). */
const EVENTS: Partial<Record<HookDialect, readonly string[]>> = {
  claude: [
    'SessionStart', 'Setup', 'UserPromptSubmit', 'UserPromptExpansion', 'PreToolUse', 'PermissionRequest', 'PermissionDenied',
    'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'MessageDisplay', 'SubagentStart', 'SubagentStop',
    'TaskCreated', 'TaskCompleted', 'Stop', 'StopFailure', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged',
    'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove', 'PreCompact', 'PostCompact', 'Elicitation',
    'ElicitationResult', 'SessionEnd',
  ],
  codex: ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SubagentStop', 'Stop', 'SessionStart', 'SubagentStart', 'SessionEnd'],
  gemini: ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'SessionStart', 'SessionEnd', 'Notification', 'PreCompress'],
  blade: [
    'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Elicitation', 'ElicitationResult', 'UserPromptSubmit',
    'SessionStart', 'SessionEnd', 'Stop', 'SubagentStop', 'Notification', 'Compaction',
  ],
};
EVENTS.plugin = EVENTS.claude;

/** Keys of a hooks object that configure hooks instead of naming an event. */
const CONFIG_KEYS = new Set(['enabled', 'defaultTimeout', 'timeoutBehavior', 'failureBehavior', 'maxConcurrentHooks', 'httpPolicy', 'disableAllHooks', 'version', 'description', '$schema']);

/** Where a hooks object was found, for items and warnings. */
export interface HookSource {
  path: string;
  dialect: HookDialect;
  /** Tool label for items (`claude`, `codex`, `gemini`, `blade`, `cursor`, `plugin`). */
  tool: string;
  plugin?: string | null;
  /** Line of an object in the parsed document (from the positional JSON parser), or null. */
  lineOf: (node: unknown) => number | null;
  /** Line used when a node has no known line (e.g. TOML, frontmatter). */
  fallbackLine?: number | null;
}

/**
 * Adds one `hook` item per handler of a hooks object `{<event>: [<group>...]}` (groups
 * `{matcher?, hooks: [handler...]}`; Cursor's flat `[{command}]` also accepted) with the event,
 * the matcher and the literal command or URL. Wrong shapes become warnings, never exceptions.
 * Returns the number of hook items added.
 */
export function collectHooks(hooks: unknown, src: HookSource, out: ReviewCollector): number {
  const at = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  if (!isRecord(hooks)) {
    out.warn({ path: src.path, line: at(hooks), message: '"hooks" is not an object of events; agents reject it', fix: 'Write "hooks": { "PreToolUse": [ { "matcher": "...", "hooks": [ ... ] } ] }.' });
    return 0;
  }
  const disabled = src.dialect === 'blade' && hooks.enabled !== true;
  let count = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (CONFIG_KEYS.has(event)) continue;
    const eventWarnings = eventNameWarnings(event, src, at(groups) ?? at(hooks));
    if (!Array.isArray(groups)) {
      out.warn({ path: src.path, line: at(groups) ?? at(hooks), message: `hooks for "${event}" must be an array of matcher groups (Claude Code: "Expected array"); the entry is dropped`, fix: `Write "${event}": [ { "hooks": [ { "type": "command", "command": "..." } ] } ].` });
      continue;
    }
    for (const group of groups) {
      if (!isRecord(group)) continue;
      const handlers = Array.isArray(group.hooks) ? group.hooks : 'command' in group || 'type' in group || 'url' in group ? [group] : [];
      if (handlers.length === 0) {
        out.warn({ path: src.path, line: at(group), message: `a "${event}" matcher group has no "hooks" array, so it runs nothing`, fix: 'Add "hooks": [ { "type": "command", "command": "..." } ] to the group.' });
      }
      const matcher = renderMatcher(group.matcher);
      const matcherWarnings = matcherProblems(group.matcher, src, at(group));
      for (const handler of handlers) {
        if (!isRecord(handler)) continue;
        count++;
        out.add(handlerItem(event, matcher, group, handler, src, at(handler) ?? at(group), [...eventWarnings, ...matcherWarnings], disabled));
      }
    }
  }
  return count;
}

function handlerItem(
  event: string,
  matcher: string | undefined,
  group: Record<string, unknown>,
  handler: Record<string, unknown>,
  src: HookSource,
  line: number | null,
  shared: TrustWarning[],
  disabled: boolean,
) {
  const type = str(handler.type) ?? (handler.url ? 'http' : 'command');
  const args = strings(handler.args);
  const command = str(handler.command);
  const url = str(handler.url);
  const prompt = str(handler.prompt);
  const literal = command !== undefined ? commandLine(command, args) : url !== undefined ? redactUrl(url) : prompt !== undefined ? prompt : '';
  const warnings: TrustWarning[] = [...shared];
  const notice = eventNotice(event, src.path, line);
  if (notice) warnings.push(notice);
  if (command !== undefined) warnings.push(...commandRiskWarnings(commandLine(command, args), src.path, line));
  if (command === undefined && url === undefined && prompt === undefined && str(handler.server) === undefined) {
    warnings.push({ path: src.path, line, message: `a "${event}" hook has neither "command", "url" nor "prompt"`, fix: 'Give the hook a "command" (or remove it).' });
  }
  if (disabled) warnings.push({ path: src.path, line, message: 'Blade runs these hooks only when "hooks.enabled" is true (it is not set here)', fix: null });
  const condition = str(handler.if);
  const name = str(handler.name) ?? str(group.name);
  const headerNames = isRecord(handler.headers) ? Object.keys(handler.headers) : undefined;
  const executable = type !== 'prompt' && type !== 'agent';
  const what = type === 'prompt' || type === 'agent' ? `${type}: ${literal}` : type === 'http' ? `POST ${literal}` : type === 'mcp_tool' ? `MCP tool ${str(handler.server) ?? ''}/${str(handler.tool) ?? ''}` : literal;
  return {
    kind: 'hook' as const,
    path: src.path,
    line,
    name: event,
    summary: oneLine(`${event}${matcher ? ` [${matcher}]` : ''}${condition ? ` if ${condition}` : ''}: ${what}`),
    executable,
    tool: src.tool,
    warnings,
    detail: {
      event,
      handlerType: type,
      ...(matcher !== undefined ? { matcher } : {}),
      ...(command !== undefined ? { command: commandLine(command, args) } : {}),
      ...(args.length ? { args } : {}),
      ...(url !== undefined ? { url: redactUrl(url) } : {}),
      ...(condition ? { condition } : {}),
      ...(headerNames ? { headerNames } : {}),
      ...(src.plugin ? { plugin: src.plugin } : {}),
      ...(name ? { description: name } : {}),
    },
  };
}

/** A matcher as one string: Claude-style strings as is, Blade's object as `tools=… paths=… commands=…`. */
function renderMatcher(matcher: unknown): string | undefined {
  if (typeof matcher === 'string') return matcher === '' ? undefined : matcher;
  if (isRecord(matcher)) {
    const parts = Object.entries(matcher).map(([k, v]) => `${k}=${strings(v).join(',') || JSON.stringify(v)}`);
    return parts.length ? parts.join(' ') : undefined;
  }
  return undefined;
}

function eventNameWarnings(event: string, src: HookSource, line: number | null): TrustWarning[] {
  const known = EVENTS[src.dialect];
  if (!known || known.includes(event)) return [];
  const sameLetters = known.find((k) => k.toLowerCase() === event.toLowerCase());
  if (sameLetters) {
    return [{ path: src.path, line, message: `"${event}" is not an event name (names are case-sensitive); the agent drops these hooks`, fix: `Rename the key to "${sameLetters}".` }];
  }
  return [{ path: src.path, line, message: `"${event}" is not a known ${src.dialect === 'plugin' ? 'Claude Code' : src.dialect} hook event; the agent may drop these hooks`, fix: `Use one of: ${known.slice(0, 8).join(', ')}, ...` }];
}

function matcherProblems(matcher: unknown, src: HookSource, line: number | null): TrustWarning[] {
  if (matcher === undefined) return [];
  if (src.dialect === 'blade') {
    return typeof matcher === 'string'
      ? [{ path: src.path, line, message: 'Blade ignores string matchers: this hook runs for every tool', fix: 'Write "matcher": { "tools": "Edit|Write" }.' }]
      : [];
  }
  if (typeof matcher !== 'string') {
    return [{ path: src.path, line, message: '"matcher" should be a string', fix: 'Write the matcher as a string, e.g. "matcher": "Edit|Write".' }];
  }
  if (/^[A-Za-z_][\w-]*\(.*\)$/.test(matcher) && src.dialect !== 'gemini') {
    const tool = matcher.slice(0, matcher.indexOf('('));
    return [
      {
        path: src.path,
        line,
        message: `matcher "${matcher}" uses permission-rule syntax, which never matches a tool name, so this hook never runs`,
        fix: `Set "matcher": "${tool}" and move the condition to the hook's "if": "${matcher}".`,
      },
    ];
  }
  return [];
}
