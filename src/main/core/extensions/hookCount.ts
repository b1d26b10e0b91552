/** What a hooks object declares: how many handlers, for which events (in file order). */
export interface HookSummary {
  count: number;
  events: string[];
}

/** Keys of a hooks object that configure hooks rather than name an event (Blade's `enabled`, a file's `description`…). */
const CONFIG_KEYS = new Set(['enabled', 'description', 'version', '$schema', 'disableAllHooks']);

/**
 * Counts the handlers of a hooks object `{<event>: [{matcher?, hooks: [handler…]}…]}` (formats.md
 * §2.5), also accepting a `{hooks: {…}}` wrapper (plugin `hooks/hooks.json`) and Cursor's flat
 * `[{command}]` groups (one handler each). Returns null when `value` is not an object of events.
 * Listing only: `core/hooks` parses, approves and runs hooks.
 */
export function summarizeHooks(value: unknown): HookSummary | null {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const events = isObject(value) && isObject(value.hooks) ? value.hooks : value;
  if (!isObject(events)) return null;
  const out: HookSummary = { count: 0, events: [] };
  for (const [event, groups] of Object.entries(events)) {
    if (CONFIG_KEYS.has(event) || !Array.isArray(groups)) continue;
    let n = 0;
    for (const g of groups) n += isObject(g) && Array.isArray(g.hooks) ? g.hooks.length : 1;
    if (n === 0) continue;
    out.count += n;
    out.events.push(event);
  }
  return out;
}
