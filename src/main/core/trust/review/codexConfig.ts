import type { TrustWarning } from '../../../../shared/contract';
import type { ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import type { ReviewEnv } from './resources';
import { collectMcpServers } from './servers';
import { describeKey, modelTrafficWarning, settingRisks } from './settings';
import type { SourceText } from './sources';
import { isRecord, lineOfText, oneLine, str } from '../../formats/text';
import { parseTomlText } from '../../formats/toml';

/**
 * Reviews a project `.codex/config.toml` (formats.md §1.3–1.4: loaded only for trusted projects):
 * inline `[hooks]` tables, `[mcp_servers.<name>]` (unless the extensions bundle lists them:
 * `bundleReadsMcp`) and the remaining keys as one `setting` item
 * (values shown only for permission/sandbox/approval keys). A TOML error becomes a warning with
 * its line and column.
 */
export function reviewCodexConfig(src: SourceText, env: ReviewEnv & { bundleReadsMcp: boolean }, out: ReviewCollector): void {
  const path = src.rel;
  if (src.text === null) {
    out.add({ kind: 'setting', path, name: 'config.toml', summary: 'Codex project config (not inspected)', executable: true, tool: 'codex', warnings: src.warnings });
    return;
  }
  const text = src.text;
  const parsed = parseTomlText(text);
  if (!parsed.ok) {
    const { line, column, reason: message } = parsed;
    out.add({
      kind: 'setting',
      path,
      line,
      name: 'config.toml',
      summary: `Codex project config that does not parse${line ? ` (line ${line})` : ''}; Codex refuses to start with it`,
      executable: true,
      tool: 'codex',
      warnings: [...src.warnings, { path, line, message: `invalid TOML${line ? ` at line ${line}, column ${column}` : ''}: ${message}`, fix: 'Fix the TOML syntax on that line (strings in double quotes, one key = value per line).' }],
    });
    return;
  }
  const root = parsed.value;
  const lineOfKey = (key: string) => lineOfText(text, key);
  // `[hooks.state."<key>"] trusted_hash = …` is Codex's own per-hook trust record, not an event
  const hooks = isRecord(root.hooks) ? Object.fromEntries(Object.entries(root.hooks).filter(([k]) => k !== 'state')) : root.hooks;
  if (hooks !== undefined && !(isRecord(hooks) && Object.keys(hooks).length === 0)) collectHooks(hooks, { path, dialect: 'codex', tool: 'codex', lineOf: () => null, fallbackLine: lineOfKey('hooks') }, out);
  if (root.mcp_servers !== undefined && !env.bundleReadsMcp) {
    collectMcpServers(root.mcp_servers, { path, tool: 'codex', lineOf: () => null, fallbackLine: lineOfKey('mcp_servers'), dir: env.dir, homeDir: env.homeDir }, out);
  }
  const traffic = ['model_provider', 'model_providers'].filter((k) => root[k] !== undefined);
  if (traffic.length) {
    out.add({
      kind: 'setting',
      path,
      line: lineOfKey(traffic[0]),
      name: traffic.join(', '),
      summary: oneLine(`Redirects model traffic: ${traffic.map((k) => describeKey(k, root[k])).join(', ')}`),
      // sends data, runs nothing: approved separately in Agent settings
      executable: false,
      tool: 'codex',
      warnings: [modelTrafficWarning(path, lineOfKey(traffic[0]), traffic)],
    });
  }
  const keys = Object.keys(root).filter((k) => k !== 'hooks' && k !== 'mcp_servers');
  if (keys.length === 0 && src.warnings.length === 0) return;
  const warnings: TrustWarning[] = [...src.warnings, ...settingRisks(root, path, 1)];
  for (const key of ['sandbox_mode', 'default_permissions']) {
    const v = str(root[key]);
    if (v && /danger|full-access/i.test(v)) warnings.push({ path, line: lineOfKey(key), message: `${key} = "${v}": commands run without a sandbox`, fix: null });
  }
  const approval = str(root.approval_policy);
  if (approval === 'never') warnings.push({ path, line: lineOfKey('approval_policy'), message: 'approval_policy = "never": Codex never asks before running commands', fix: null });
  const profiles = isRecord(root.profiles) ? Object.keys(root.profiles) : [];
  out.add({
    kind: 'setting',
    path,
    line: 1,
    name: 'config.toml',
    summary: oneLine(`Codex project config: ${keys.map((k) => (k === 'profiles' && profiles.length ? `profiles (${profiles.join(', ')})` : describeKey(k, root[k]))).join(', ')}`),
    executable: false,
    tool: 'codex',
    warnings,
  });
}
