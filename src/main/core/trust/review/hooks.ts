import type { TrustWarning } from '../../../../shared/contract';
import { readHooksObject, type HookDialect, type ReadHandler } from '../../hooks/parse';
import type { ReviewCollector } from './collector';
import { commandRiskWarnings, eventNotice } from './risk';
import { redactUrl } from '../../formats/maskValues';
import { commandLine, isRecord, oneLine, strings } from '../../formats/text';

export type { HookDialect } from '../../hooks/parse';

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
 * Adds one `hook` item per handler that the hooks capability's parser (`readHooksObject`,
 * hooks/parse.ts) reads from a hooks object `{<event>: [<group>...]}`, with the event, the matcher
 * and the literal command or URL. The item's warnings are the parser's (the ones the Hooks tab
 * shows: why it can never run, then notices) followed by the review's own: the event's "runs
 * without you" notice, the command's risk notices and Blade's `hooks.enabled`. Problems outside
 * any handler become review warnings. Never throws. Returns the number of hook items added.
 */
export function collectHooks(hooks: unknown, src: HookSource, out: ReviewCollector): number {
  const lineOf = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  const read = readHooksObject(hooks, { dialect: src.dialect, shownPath: src.path, lineOf });
  for (const w of read.warnings) out.warn(w);
  const disabled = src.dialect === 'blade' && isRecord(hooks) && hooks.enabled !== true;
  for (const handler of read.handlers) out.add(handlerItem(handler, src, disabled));
  return read.handlers.length;
}

function handlerItem(h: ReadHandler, src: HookSource, disabled: boolean) {
  const { event, fields, line } = h;
  // a handler without a usable "type" is shown as what it looks like (the parser marks it invalid)
  const type = fields.type === 'unknown' ? (fields.url ? 'http' : 'command') : fields.type;
  const args = fields.args ?? [];
  const { command, url, prompt } = fields;
  const literal = command !== undefined ? commandLine(command, args) : url !== undefined ? redactUrl(url) : prompt !== undefined ? prompt : '';
  const warnings: TrustWarning[] = [...h.invalid, ...h.warnings];
  const notice = eventNotice(event, src.path, line);
  if (notice) warnings.push(notice);
  if (command !== undefined) warnings.push(...commandRiskWarnings(commandLine(command, args), src.path, line));
  if (disabled) warnings.push({ path: src.path, line, message: 'Blade runs these hooks only when "hooks.enabled" is true (it is not set here)', fix: null });
  const matcher = renderMatcher(h.matcher);
  const condition = fields.if;
  const name = fields.name;
  const headerNames = fields.headers ? Object.keys(fields.headers) : undefined;
  const executable = type !== 'prompt' && type !== 'agent';
  const what = type === 'prompt' || type === 'agent' ? `${type}: ${literal}` : type === 'http' ? `POST ${literal}` : type === 'mcp_tool' ? `MCP tool ${fields.server ?? ''}/${fields.tool ?? ''}` : literal;
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
