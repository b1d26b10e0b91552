import type * as acp from '@agentclientprotocol/sdk';
import type { McpServer, WithheldMcpServer } from '../../../../shared/contract';
import type { ApprovedMcpServer } from '../../hooks/service';

/**
 * Splits a workspace's repository MCP servers into the ones a session may pass
 * to its agent (`approved` at their current digest, folder not restricted) and the ones it
 * withholds, each with a reason for the session view.
 */
export function splitMcpServers(listed: readonly McpServer[], approved: readonly ApprovedMcpServer[]): { passed: ApprovedMcpServer[]; withheld: WithheldMcpServer[] } {
  const ok = new Map(approved.map((s) => [s.id, s]));
  const passed: ApprovedMcpServer[] = [];
  const withheld: WithheldMcpServer[] = [];
  for (const s of listed) {
    const a = ok.get(s.id);
    if (a && a.digest === s.digest && s.state === 'approved' && !s.heldBack) {
      if (a.refused) withheld.push({ id: s.id, name: s.name, state: s.state, heldBack: false, reason: `approved, but ${a.refused}` });
      else if (toAcpServer(a)) passed.push(a);
      else withheld.push({ id: s.id, name: s.name, state: s.state, heldBack: false, reason: `approved, but its transport "${s.transport}" cannot be passed over ACP (stdio, http and sse can)` });
      continue;
    }
    const reason = s.heldBack
      ? 'the folder is in restricted mode: trust it to review and approve its servers'
      : s.state === 'modified'
        ? 'changed since it was approved: review and approve it again'
        : s.state === 'invalid'
          ? 'invalid: see its warnings'
          : s.state === 'disabled'
            ? `switched off: ${(s.warnings[0]?.message ?? 'its plugin or settings turn it off').replace(/^disabled: /, '')}`
            : 'not approved: review and approve it on the Hooks tab';
    withheld.push({ id: s.id, name: s.name, state: s.state, heldBack: s.heldBack, reason });
  }
  return { passed, withheld };
}

/**
 * An approved server in ACP's `McpServer` shape (`session/new|load|resume` `mcpServers`): stdio
 * `{name, command, args, env}`, or `{type: "http"|"sse", name, url, headers}`; null for a transport
 * ACP cannot carry or a server refused for its `cwd` (see `ApprovedMcpServer.refused`). ACP's stdio
 * form has no working directory: the agent starts it in its own cwd, so the command and path
 * arguments arrive already made absolute from the server's `cwd`.
 */
export function toAcpServer(s: ApprovedMcpServer): acp.McpServer | null {
  if (s.refused) return null;
  const pairs = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));
  if (s.command !== null && (s.transport === 'stdio' || !s.url)) return { name: s.name, command: s.command, args: s.args, env: pairs(s.env) };
  if (s.url && (s.transport === 'http' || s.transport === 'streamable-http' || s.transport === 'streamableHttp')) return { type: 'http', name: s.name, url: s.url, headers: pairs(s.headers) };
  if (s.url && s.transport === 'sse') return { type: 'sse', name: s.name, url: s.url, headers: pairs(s.headers) };
  return null;
}
