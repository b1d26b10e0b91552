/**
 * The first message an editor shows for a session started through `atrium acp`: what of the
 * workspace is inactive in it (restricted mode, hooks not run, MCP servers withheld) and how to
 * review and trust or approve it in Atrium. Nothing is said when everything applies.
 */
import type { SessionPolicy } from '../../../shared/contract';
import { shellQuote } from '../formats/shell/quote';

/** A path as typed in a shell (quoted only when needed), so suggested commands can be copied. */
export const shellArg = (value: string): string => (/^[\w./@:+,=-]+$/.test(value) ? value : shellQuote(value));

/**
 * The message for `policy` (a session's snapshot view) of a session in `folder`, or null when the
 * workspace is trusted and every hook and MCP server it has applies. Plain text with short lines,
 * since editors render agent text as Markdown. `dataDir` is the `--data-dir` `atrium acp` was given
 * (undefined: the default one); the suggested commands carry it, since without it they would act on
 * another database than the one this session's trust and approvals live in.
 */
export function inactiveNotice(policy: SessionPolicy, folder: string, dataDir?: string): string | null {
  const trust = policy.snapshot?.trust ?? 'restricted';
  const skipped = policy.hooks.skipped;
  const withheld = policy.mcp.withheld;
  if (trust === 'trusted' && !skipped.length && !withheld.length) return null;
  const dir = shellArg(folder);
  const dd = dataDir ? ` --data-dir ${shellArg(dataDir)}` : '';
  const lines: string[] = [];
  if (trust !== 'trusted') {
    lines.push(
      `Atrium: this folder is in restricted mode (${trust === 'partial' ? 'partly trusted' : 'not trusted'}). The agent gets only your own resources: no project rules, hooks or MCP servers from the repository.`,
      `Review what trusting it would activate with \`atrium trust review ${dir}${dd}\` (or the Trust view of the Atrium app), then \`atrium trust set ${dir} trusted${dd}\`. New sessions get it; this one keeps its snapshot.`,
    );
  }
  if (skipped.length) {
    const names = skipped.slice(0, 5).map((h) => `${h.event}: ${h.command ?? h.id} (${h.state})`);
    lines.push(`Atrium: ${skipped.length} hook${skipped.length === 1 ? '' : 's'} will not run in this session: ${names.join('; ')}${skipped.length > 5 ? '; …' : ''}.`);
  }
  if (withheld.length) {
    lines.push(`Atrium: ${withheld.length} MCP server${withheld.length === 1 ? ' is' : 's are'} withheld: ${withheld.map((m) => m.name).join(', ')}.`);
  }
  if (trust === 'trusted' && (skipped.length || withheld.length)) lines.push(`Review and approve them by digest with \`atrium hooks list ${dir}${dd}\` and \`atrium hooks approve ${dir} ID${dd}\` (or the Hooks view of the Atrium app).`);
  return lines.join('\n\n');
}
