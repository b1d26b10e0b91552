import type { TrustWarning } from '../../../shared/contract';
import { isRecord } from '../formats/text';
import { KNOWN_TOOLS, TOOL_EVENTS, atriumEventOf, dialectEvents, type HookDialect } from './events';
import { parseClaudeMatcher, parsePermissionRule } from './matchers';
import { reservedHookEnvNames } from './danger';
import type { SourceFile } from './sources';

export type { HookDialect } from './events';

/** The handler fields Atrium reads (formats.md §2.5 "Handler fields"; seed-behaviour §9.2). */
export interface HandlerFields {
  type: string;
  command?: string;
  args?: string[];
  url?: string;
  prompt?: string;
  if?: string;
  shell?: string;
  async?: boolean;
  timeout?: number;
  env?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  allowedEnvVars?: string[];
  server?: string;
  tool?: string;
  input?: unknown;
  model?: string;
  name?: string;
}

/** One handler as read from a hooks object, before it is tied to a source file. */
export interface ReadHandler {
  event: string;
  groupIndex: number;
  handlerIndex: number;
  line: number | null;
  /** The group's matcher exactly as written (string, Blade object, or undefined). */
  matcher: unknown;
  fields: HandlerFields;
  /** Why the handler can never run (schema mistakes); empty when valid. */
  invalid: TrustWarning[];
  /** Notices that do not stop it from running. */
  warnings: TrustWarning[];
}

/** One handler as parsed, before digests and states. */
export interface ParsedHandler extends ReadHandler {
  src: SourceFile;
}

/** What parsing one hooks object needs to know. */
export interface ParseContext {
  src: SourceFile;
  /** The file as shown in warnings (`.claude/settings.json`, `~/.claude/settings.json`). */
  shownPath: string;
  lineOf(node: unknown): number | null;
}

/** What reading one hooks object needs to know when there is no hook source file (the trust review). */
export interface ReadContext {
  dialect: HookDialect;
  /** The file as shown in warnings. */
  shownPath: string;
  lineOf(node: unknown): number | null;
}

const TYPES = ['command', 'http', 'prompt', 'agent', 'mcp_tool'];
/** Keys of a hooks object that configure hooks instead of naming an event, per dialect. */
const CONFIG_KEYS: Record<HookDialect, ReadonlySet<string>> = {
  claude: new Set(['$schema', 'description']),
  plugin: new Set(['$schema', 'description']),
  codex: new Set(['$schema', 'description', 'version']),
  gemini: new Set(['enabled', 'disabled', 'notifications', '$schema']),
  blade: new Set(['enabled', 'defaultTimeout', 'timeoutBehavior', 'failureBehavior', 'maxConcurrentHooks', 'httpPolicy', '$schema']),
  // `.cursor/hooks.json` is `{version, hooks}`; read as a bare event map, "version" is not an event
  cursor: new Set(['version', '$schema']),
};

/**
 * Parses a hooks object `{<event>: [{matcher?, hooks: [handler...]}]}` faithfully for its format:
 * Claude/Codex/Gemini/plugin (string matchers, formats.md §2.5) or Blade (object matchers
 * `{tools, paths, commands}`, seed-behaviour §9.1). Schema mistakes (wrong-case or unknown event,
 * an object where an array belongs, a non-string matcher, a missing or unknown `type`, wrong field
 * types) produce a precise warning and an invalid handler that can never run; the rest still
 * loads. Never throws.
 */
export function parseHooksObject(hooks: unknown, ctx: ParseContext): { handlers: ParsedHandler[]; warnings: TrustWarning[] } {
  const { src } = ctx;
  const read = readHooksObject(hooks, { dialect: src.format, shownPath: ctx.shownPath, lineOf: ctx.lineOf });
  return { handlers: read.handlers.map((h) => ({ src, ...h })), warnings: read.warnings };
}

/**
 * {@link parseHooksObject} without a source file, for any {@link HookDialect}: the same handlers,
 * fields and warnings. Cursor (`dialect: 'cursor'`, which the hooks capability never reads) differs
 * from the Claude-style dialects in three ways, all following Cursor's documented shape
 * `{"<event>": [{"command": "..."}]}`: its event names are not checked, a handler may sit directly
 * in the event list (no warning), and a handler without "type" that has a "command" is a command
 * hook. Never throws.
 */
export function readHooksObject(hooks: unknown, ctx: ReadContext): { handlers: ReadHandler[]; warnings: TrustWarning[] } {
  const { dialect } = ctx;
  const warnings: TrustWarning[] = [];
  const handlers: ReadHandler[] = [];
  const warn = (line: number | null, message: string, fix: string | null): TrustWarning => ({ path: ctx.shownPath, line, message, fix });
  if (!isRecord(hooks)) {
    warnings.push(warn(ctx.lineOf(hooks), '"hooks" is not an object of events, so no hook in this file can run', 'Write "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "..." } ] } ] }.'));
    return { handlers, warnings };
  }
  const known = dialectEvents(dialect);
  for (const [event, value] of Object.entries(hooks)) {
    if (CONFIG_KEYS[dialect].has(event)) continue;
    const eventLine = ctx.lineOf(value) ?? ctx.lineOf(hooks);
    const eventProblems: TrustWarning[] = [];
    if (known && !known.includes(event)) {
      const same = known.find((k) => k.toLowerCase() === event.toLowerCase());
      eventProblems.push(
        same
          ? warn(eventLine, `"${event}" is not an event name (event names are case-sensitive), so these hooks never run`, `Rename the key to "${same}".`)
          : warn(eventLine, `"${event}" is not a ${formatLabel(dialect)} hook event, so these hooks never run`, `Use one of: ${known.slice(0, 9).join(', ')}, ...`),
      );
    }
    let groups: unknown[];
    if (Array.isArray(value)) groups = value;
    else if (isRecord(value) && (Array.isArray(value.hooks) || 'command' in value)) {
      groups = [value];
      eventProblems.push(warn(eventLine, `hooks for "${event}" must be an array of matcher groups, not an object (Claude Code: "Expected array, but received object")`, `Wrap it in [ ]: "${event}": [ { ... } ].`));
    } else {
      warnings.push(warn(eventLine, `hooks for "${event}" must be an array of matcher groups; nothing in it can run`, `Write "${event}": [ { "hooks": [ { "type": "command", "command": "..." } ] } ].`));
      continue;
    }
    groups.forEach((group, groupIndex) => {
      if (!isRecord(group)) {
        warnings.push(warn(eventLine, `a "${event}" entry is not an object; it is ignored`, 'Write { "matcher": "...", "hooks": [ ... ] }.'));
        return;
      }
      const groupLine = ctx.lineOf(group) ?? eventLine;
      const groupProblems = [...eventProblems];
      const groupNotes: TrustWarning[] = [];
      let list: unknown[];
      if (Array.isArray(group.hooks)) list = group.hooks;
      else if ('command' in group || 'type' in group || 'url' in group) {
        list = [group];
        if (dialect !== 'cursor') groupProblems.push(warn(groupLine, `a "${event}" handler sits directly in the event list; it must be inside a group's "hooks" array`, `Write "${event}": [ { "hooks": [ { "type": "command", "command": "..." } ] } ].`));
      } else {
        warnings.push(warn(groupLine, `a "${event}" matcher group has no "hooks" array, so it runs nothing`, 'Add "hooks": [ { "type": "command", "command": "..." } ] to the group.'));
        return;
      }
      matcherProblems(group.matcher, event, dialect, groupLine, warn, groupProblems, groupNotes);
      list.forEach((handler, handlerIndex) => {
        const line = (isRecord(handler) ? ctx.lineOf(handler) : null) ?? groupLine;
        const invalid = [...groupProblems];
        const notes = [...groupNotes];
        const fields = readFields(handler, event, dialect, line, warn, invalid, notes);
        if (dialect === 'blade' && fields.name === undefined && typeof group.name === 'string') fields.name = group.name;
        handlers.push({ event, groupIndex, handlerIndex, line, matcher: group.matcher, fields, invalid, warnings: notes });
      });
    });
  }
  return { handlers, warnings };
}

type Warn = (line: number | null, message: string, fix: string | null) => TrustWarning;

function readFields(handler: unknown, event: string, format: HookDialect, line: number | null, warn: Warn, invalid: TrustWarning[], notes: TrustWarning[]): HandlerFields {
  if (!isRecord(handler)) {
    invalid.push(warn(line, `a "${event}" handler is not an object`, 'Write { "type": "command", "command": "..." }.'));
    return { type: 'unknown' };
  }
  const h = handler;
  const bad = (key: string, what: string, fix: string) => invalid.push(warn(line, `"${key}" ${what}`, fix));
  const optString = (key: string): string | undefined => {
    if (h[key] === undefined) return undefined;
    if (typeof h[key] === 'string') return h[key] as string;
    bad(key, `must be a string, not ${describe(h[key])}`, `Write "${key}": "...".`);
    return undefined;
  };
  let type = typeof h.type === 'string' ? h.type : undefined;
  if (h.type === undefined) {
    if ((format === 'blade' || format === 'cursor') && typeof h.command === 'string') type = 'command';
    else invalid.push(warn(line, 'the handler has no "type"', 'Add "type": "command" (or "http", "prompt", "agent", "mcp_tool").'));
  } else if (typeof h.type !== 'string' || !TYPES.includes(h.type)) {
    invalid.push(warn(line, `"type" ${JSON.stringify(h.type)} is not a hook type`, 'Use "command", "http", "prompt", "agent" or "mcp_tool".'));
  } else if (format === 'gemini' && h.type !== 'command') {
    invalid.push(warn(line, `Gemini CLI runs only "command" hooks, not "${h.type}"`, 'Use "type": "command".'));
  } else if (format === 'blade' && (h.type === 'agent' || h.type === 'mcp_tool')) {
    invalid.push(warn(line, `Blade has no "${h.type}" hooks`, 'Use "command", "http" or "prompt".'));
  }
  const fields: HandlerFields = { type: type ?? (typeof h.type === 'string' ? h.type : 'unknown') };
  fields.command = optString('command');
  fields.url = optString('url');
  fields.prompt = optString('prompt');
  fields.if = optString('if');
  fields.shell = optString('shell');
  fields.server = optString('server');
  fields.tool = optString('tool');
  fields.model = optString('model');
  fields.name = optString('name');
  if (h.args !== undefined) {
    if (Array.isArray(h.args) && h.args.every((a) => typeof a === 'string')) fields.args = h.args as string[];
    else bad('args', 'must be an array of strings', 'Write "args": ["--flag", "value"].');
  }
  if (h.timeout !== undefined) {
    if (typeof h.timeout === 'number' && Number.isFinite(h.timeout) && h.timeout > 0) fields.timeout = h.timeout;
    else bad('timeout', `must be a positive number of ${format === 'gemini' ? 'milliseconds' : 'seconds'}, not ${describe(h.timeout)}`, `Write "timeout": ${format === 'gemini' ? 60000 : 60}.`);
  }
  if (h.async !== undefined) {
    if (typeof h.async === 'boolean') fields.async = h.async;
    else bad('async', 'must be true or false', 'Write "async": true.');
  }
  for (const key of ['env', 'headers'] as const) {
    if (h[key] === undefined) continue;
    if (isRecord(h[key]) && Object.values(h[key]).every((v) => typeof v === 'string')) fields[key] = h[key];
    else bad(key, 'must be an object of string values', `Write "${key}": { "NAME": "value" }.`);
  }
  const reserved = fields.env ? reservedHookEnvNames(Object.keys(fields.env)) : [];
  if (reserved.length) {
    const names = reserved.map((n) => `"${n}"`).join(', ');
    invalid.push(
      warn(
        line,
        `"env" sets ${names}: Atrium sets HOME, CLAUDE_PROJECT_DIR and ATRIUM_* (and plugin/format variables) itself and never passes BASH_ENV or ENV, so a hook cannot override them and this hook never runs`,
        `Remove ${names} from "env"; read $HOME and $CLAUDE_PROJECT_DIR as Atrium sets them.`,
      ),
    );
  }
  if (h.allowedEnvVars !== undefined) {
    if (Array.isArray(h.allowedEnvVars) && h.allowedEnvVars.every((v) => typeof v === 'string')) fields.allowedEnvVars = h.allowedEnvVars as string[];
    else bad('allowedEnvVars', 'must be an array of variable names', 'Write "allowedEnvVars": ["MY_TOKEN"].');
  }
  if (h.input !== undefined) fields.input = h.input;
  if (fields.shell !== undefined && fields.shell !== 'bash' && fields.shell !== 'powershell') bad('shell', `must be "bash" or "powershell", not "${fields.shell}"`, 'Remove "shell" (bash is the default).');
  const required: Record<string, Array<keyof HandlerFields>> = { command: ['command'], http: ['url'], prompt: ['prompt'], agent: ['prompt'], mcp_tool: ['server', 'tool'] };
  for (const key of required[fields.type] ?? []) {
    const v = fields[key];
    if (typeof v !== 'string' || v.trim() === '') invalid.push(warn(line, `a "${fields.type}" hook needs "${key}"`, `Add "${key}": "...".`));
  }
  if (fields.if !== undefined) {
    const rule = parsePermissionRule(fields.if);
    const runsOn = atriumEventOf(format, event);
    if (!rule) invalid.push(warn(line, `"if": "${fields.if}" is not a permission rule`, 'Write a rule like "Bash(git commit*)" or "Edit(src/**)".'));
    else if (runsOn && !TOOL_EVENTS.has(runsOn)) notes.push(warn(line, `"if" only works on tool events; on ${event} a hook with "if" never runs`, 'Remove "if", or move the hook to PreToolUse/PostToolUse.'));
    else if (rule.tool === 'Bash' && rule.pattern !== null) {
      // the two misreadings Claude Code 2.1.318 itself warns about when it validates a Bash rule
      const prefix = /^(.+):\*$/s.exec(rule.pattern)?.[1];
      if (prefix !== undefined && /(?<!\\)\*/.test(prefix))
        notes.push(warn(line, `"if": "${fields.if}" mixes * with the trailing :* prefix form, so its * is read literally (not as a wildcard)`, `Write "Bash(${prefix.replace(/:$/, '')})" with * wildcards only, e.g. "Bash(git push *)".`));
      else if (prefix === undefined && rule.pattern.includes(':*'))
        notes.push(warn(line, `"if": "${fields.if}" has :* before the end, where it is a * wildcard after a colon, not the prefix form`, 'Write the prefix form at the end ("Bash(git push:*)") or a plain * wildcard ("Bash(git push *)").'));
    }
  }
  return fields;
}

function matcherProblems(matcher: unknown, event: string, format: HookDialect, line: number | null, warn: Warn, invalid: TrustWarning[], notes: TrustWarning[]): void {
  if (matcher === undefined) return;
  if (format === 'blade') {
    if (typeof matcher === 'string') notes.push(warn(line, 'Blade ignores string matchers: this hook runs for every tool', 'Write "matcher": { "tools": "Edit|Write" }.'));
    else if (!isRecord(matcher)) invalid.push(warn(line, 'a Blade "matcher" must be an object { tools, paths, commands }', 'Write "matcher": { "tools": "Edit|Write" }.'));
    return;
  }
  if (typeof matcher !== 'string') {
    invalid.push(warn(line, `"matcher" must be a string, not ${describe(matcher)}`, 'Write the matcher as a string, e.g. "matcher": "Edit|Write" (or omit it to match everything).'));
    return;
  }
  const runsOn = atriumEventOf(format, event);
  const parsed = parseClaudeMatcher(matcher);
  if (parsed.kind === 'invalid') {
    invalid.push(warn(line, `matcher "${matcher}" is not a valid regular expression (${parsed.error})`, 'Fix the expression, or list exact names separated by "|".'));
    return;
  }
  if (!runsOn || !TOOL_EVENTS.has(runsOn) || parsed.kind === 'all') {
    if (runsOn && !TOOL_EVENTS.has(runsOn) && ['UserPromptSubmit', 'Stop'].includes(runsOn) && parsed.kind !== 'all') {
      notes.push(warn(line, `${event} has no matcher; "${matcher}" is ignored and the hook runs every time`, 'Remove the matcher.'));
    }
    return;
  }
  const tools = KNOWN_TOOLS[format === 'gemini' ? 'gemini' : 'claude'];
  const permission = /^[A-Za-z_][\w-]*\(.*\)$/s.test(matcher);
  if (permission) {
    const tool = matcher.slice(0, matcher.indexOf('('));
    notes.push(warn(line, `matcher "${matcher}" uses permission-rule syntax, which never matches a tool name, so this hook never runs`, `Set "matcher": "${tool}" and move the condition to the hook's "if": "${matcher}".`));
    return;
  }
  if (parsed.kind === 'regex' && !/mcp__/.test(matcher) && !tools.some((t) => parsed.regex.test(t)) && !parsed.regex.test('mcp__server__tool')) {
    notes.push(warn(line, `matcher "${matcher}" matches no known tool name, so this hook may never run`, `Check the tool names (e.g. ${tools.slice(0, 5).join(', ')}).`));
  }
  if (parsed.kind === 'exact') {
    const lone = parsed.names.filter((n) => /^mcp__[^_]+(?:_[^_]+)*$/.test(n) && !n.slice(5).includes('__'));
    for (const n of lone) notes.push(warn(line, `"${n}" names an MCP server, not a tool, so it matches nothing`, `Use "${n}__.*" to match every tool of that server.`));
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/** Display name of a format (or the Cursor dialect). */
export function formatLabel(format: HookDialect): string {
  return { claude: 'Claude Code', plugin: 'Claude Code plugin', codex: 'Codex', gemini: 'Gemini CLI', blade: 'Blade', cursor: 'Cursor' }[format];
}
