import { expandedDefinition, withheldWarnings, type McpServerDefinition } from '../../formats/mcpServers';
import { maskUrlSecrets } from '../../formats/secrets';
import type { Layer } from '../precedence';
import type { McpRecord } from '../types';

/**
 * An MCP definition of the shared reader (`formats/mcpServers.ts`) as a bundle record (masked values, URL with secret query values masked,
 * `invalid` when it cannot start). Also used by the trust review for files the bundle does not read,
 * so both show one parse of every server. A server the sessions would withhold for its variables
 * (`withheldWarnings`: an unset variable without a default, a reference Atrium cannot expand, judged
 * from `env`, the environment agents inherit) carries those warnings and is `invalid` (cannot start).
 */
export function mcpRecord(
  d: McpServerDefinition,
  where: { source: McpRecord['source']; path: string; layer: Layer; plugin: string | null },
  env: Readonly<Record<string, string | undefined>> = process.env,
): McpRecord {
  const fix = (w: { path: string; line: number | null; message: string; fix: string | null }) => ({ ...w, path: where.path });
  // only missing and unresolvable references matter here, which the builtin folders never cause
  const withheld = withheldWarnings(d, expandedDefinition(d, env, '', ''));
  return {
    id: where.plugin ? `plugin:${where.plugin}:${d.name}` : d.name,
    name: d.name,
    transport: d.transport,
    command: d.command,
    args: d.maskedArgs,
    url: d.url === null ? null : maskUrlSecrets(d.url),
    cwd: d.cwd,
    envNames: Object.keys(d.env),
    headerNames: Object.keys(d.headers),
    variables: d.variables.map((v) => v.text),
    env: d.maskedEnv,
    headers: d.maskedHeaders,
    source: where.source,
    plugin: where.plugin,
    path: where.path,
    line: d.line,
    digest: d.digest,
    approvalId: d.id,
    status: d.invalid.length || withheld.length ? 'invalid' : 'active',
    overriddenBy: null,
    warnings: [...d.invalid, ...d.warnings, ...withheld].map(fix),
    absolutePath: d.source.absolutePath,
    layer: where.layer,
    local: where.source === 'local',
  };
}
