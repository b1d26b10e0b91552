import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { RuleFinding, RulesExplainResult, RulesLintResult, RulesListResult } from '../../../shared/contract/rules';
import type { RulesService } from '../../core/api/rulesService';
import { targetFolder } from '../workspaceRef';
import { CliError, runWithCore, withGlobalOptions, type CliCoreContext, type GlobalOptions } from '../context';

/** Byte sizes as the Rules tab writes them (`formatBytes` of the rule catalog, loaded with it). */
type FormatBytes = (bytes: number) => string;

interface ExplainOptions extends GlobalOptions {
  path: string;
  from?: string;
  loaded?: string;
  budget?: string;
  agent?: 'atrium' | 'codex' | 'claude' | 'gemini' | 'copilot';
  content?: boolean;
}

/**
 * `atrium rules list|explain|lint DIR`. DIR is any folder (not necessarily a listed
 * workspace), a workspace id or a workspace's display name, resolved as `trust` and `hooks` do. Project rules load only when the engine's trust gate trusts the folder; otherwise
 * they are listed by name with status `restricted`. `--json` prints the contract's result shapes
 * (src/shared/contract/rules.ts). Paths given to `--path`/`--from` are relative to DIR.
 */
export function registerRulesCommands(program: Command): void {
  const rules = program.command('rules').description('project rule files: what loads where, and why');

  withGlobalOptions(rules.command('list <dir>').description('list every rule file with format, kind, scope, status and warnings')).action((dir: string, opts: GlobalOptions) =>
    withService(dir, opts, async (service, { core, print }, formatBytes) => {
      const result = await service.list(targetFolder(core, dir));
      print(result, () => describeList(result, formatBytes));
    }),
  );

  withGlobalOptions(
    rules
      .command('explain <dir>')
      .description('which rules apply to a path, in order, with the reason for each and the budget')
      .requiredOption('--path <path>', 'the file the session touches (relative to DIR or absolute)')
      .option('--from <dir>', 'folder the session starts in (default: DIR)')
      .option('--loaded <ids>', 'comma-separated rule ids the session already loaded')
      .option('--budget <bytes>', 'contextual budget in bytes (default 32768)')
      .addOption(new Option('--agent <agent>', "whose view: Atrium's selection or what that agent would load").choices(['atrium', 'codex', 'claude', 'gemini', 'copilot']).default('atrium'))
      .option('--content', 'also print the rendered text'),
  ).action((dir: string, opts: ExplainOptions) =>
    withService(dir, opts, async (service, { core, print }, formatBytes) => {
      const budget = opts.budget === undefined ? undefined : Number(opts.budget);
      if (budget !== undefined && (!Number.isInteger(budget) || budget <= 0)) throw new CliError(`--budget must be a positive whole number of bytes, not "${opts.budget}".`, 2);
      const loaded = opts.loaded ? opts.loaded.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
      const root = targetFolder(core, dir);
      const result = await service.explain(root, { path: opts.path, from: opts.from, loaded, budget, agent: opts.agent });
      print(result, () => describeExplanation(result, Boolean(opts.content), formatBytes));
    }),
  );

  withGlobalOptions(rules.command('lint <dir>').description('findings about rule files with file, line and a suggested fix')).action((dir: string, opts: GlobalOptions) =>
    withService(dir, opts, async (service, { core, print }) => {
      const result = await service.lint(targetFolder(core, dir));
      print(result, () => describeLint(result));
    }),
  );
}

/**
 * Runs with a one-shot, non-watching resources cache holding only the rule catalog, on the engine
 * core's trust gate and home dir (no session, hook or extension code is loaded), reading files
 * with blocking calls (see `setBlockingFileIo`). When `dir` is a folder on disk, git starts listing its repository at once (see `prefetchGitListing`), while the
 * engine and the catalog's code load; the catalog then takes that listing.
 */
function withService(dir: string, opts: GlobalOptions, fn: (service: RulesService, ctx: CliCoreContext, formatBytes: FormatBytes) => Promise<void>): Promise<void> {
  const prefetch = prefetchListing(dir);
  return runWithCore(opts, async (ctx) => {
    await prefetch;
    const [{ WorkspaceResourcesCache }, { rulesMember }, { RulesService }, readSource, { setBlockingFileIo }] = await Promise.all([
      import('../../core/resources/cache'),
      import('../../core/resources/members'),
      import('../../core/api/rulesService'),
      import('../../core/rules/readSource'),
      import('../../core/files/fileIo'),
    ]);
    // one command, then exit: nothing else waits on the event loop while a file is read
    setBlockingFileIo(true);
    const cache = new WorkspaceResourcesCache({ homeDir: ctx.core.homeDir, trustGate: ctx.core.trustGate, watch: false, members: [rulesMember] });
    try {
      await fn(new RulesService(cache, { codexHome: ctx.core.codexHome }), ctx, readSource.formatBytes);
    } finally {
      await cache.close();
    }
  });
}

/**
 * Starts git's listing of the repository holding `dir` (the catalog root, as the rule catalog finds
 * it), when `dir` names an existing folder. Best effort: a name or id that is not a folder, or any
 * failure, starts nothing, and the catalog lists as usual.
 */
async function prefetchListing(dir: string): Promise<void> {
  try {
    const resolved = path.resolve(dir);
    if (!fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) return;
    const [{ findCatalogRoot }, { prefetchGitListing }] = await Promise.all([import('../../core/rules/paths'), import('../../core/files/listWorkspaceFiles')]);
    void prefetchGitListing(findCatalogRoot(resolved));
  } catch {
    // an optimisation only: the catalog lists on its own
  }
}

function describeList(r: RulesListResult, formatBytes: FormatBytes): string {
  const lines = [`Rules in ${r.root} (${r.trust}): ${r.files.length} file${r.files.length === 1 ? '' : 's'}, catalog ${r.catalogSha256.slice(0, 12)}`];
  const byId = new Map(r.files.map((f) => [f.id, f]));
  for (const group of r.scopes) {
    lines.push(`  ${group.scope || '(root)'}`);
    for (const id of group.fileIds) {
      const f = byId.get(id)!;
      const problems = f.warnings.filter((w) => w.severity !== 'info');
      lines.push(`    ${f.status.padEnd(10)} ${f.format.padEnd(20)} ${f.path}  ${formatBytes(f.bytes)}  ${f.condition}${f.linkTarget ? `  -> ${f.linkTarget}` : ''}`);
      // each problem on its own line with where and how to fix it, as `rules lint` prints it
      for (const w of problems) lines.push(`      ${w.severity}${w.line ? ` line ${w.line}` : ''}: ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`);
    }
  }
  if (r.files.length === 0) lines.push('  No rule files.');
  if (r.otherTools.length > 0) lines.push(`  Also present, read by other tools, not by Atrium's catalog: ${r.otherTools.map((o) => `${o.path} (${o.tool})`).join(', ')}`);
  for (const w of r.warnings) lines.push(`  ${w.severity}: ${w.message}${w.fix ? ` ${w.fix}` : ''}`);
  return lines.join('\n');
}

function describeExplanation(r: RulesExplainResult, withContent: boolean, formatBytes: FormatBytes): string {
  const lines: string[] = [];
  const title = { atrium: 'Atrium', claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', copilot: 'Copilot (VS Code, modelled from its docs)' }[r.agent];
  lines.push(`${title}, session starting in ${r.fromDir || '(root)'}, touching ${r.targetPath ?? '(a path outside the workspace)'}:`);
  const section = (name: string, rows: RulesExplainResult['static']) => {
    lines.push(`${name}:`);
    if (rows.length === 0) lines.push('  (none)');
    rows.forEach((row, i) => lines.push(`  ${i + 1}. ${row.path}  ${formatBytes(row.bytes)}  ${row.detail}`));
  };
  section(r.agent === 'atrium' ? 'Static' : 'At start', r.static);
  section(r.agent === 'atrium' ? 'Contextual' : 'On reading the path', r.contextual);
  if (r.dropped.length) section(r.agent === 'atrium' ? 'Dropped (budget)' : 'Cut, truncated or skipped', r.dropped);
  if (r.collapsed.length) section('Same file as a loaded one (loaded once)', r.collapsed);
  // An agent view is about every file the agent could see: what it ignores, would load on a match or Atrium may only size is part of the answer.
  if (r.agent !== 'atrium' && r.skipped.length) {
    lines.push('Not loaded:');
    r.skipped.forEach((row, i) => lines.push(`  ${i + 1}. ${row.path}  ${formatBytes(row.bytes)}  [${row.reason}] ${row.detail}`));
  }
  const b = r.budget;
  const fmt = (x: { maxBytes: number | null; usedBytes: number }) => `${formatBytes(x.usedBytes)}${x.maxBytes === null ? '' : ` of ${formatBytes(x.maxBytes)}`}`;
  if (r.agent === 'atrium') lines.push(`Budget: static ${fmt(b.static)}, contextual ${fmt(b.contextual)}; rendered ${formatBytes(r.contentBytes)}; provenance ${r.provenanceSha256.slice(0, 16)}`);
  else lines.push(`Loaded: ${fmt(b.static)} at start, ${formatBytes(b.contextual.usedBytes)} on reading the path; text ${formatBytes(r.contentBytes)}; provenance ${r.provenanceSha256.slice(0, 16)}`);
  if (r.agentView?.notes.length) lines.push(...r.agentView.notes.map((n) => `Note: ${n}`));
  if (withContent) lines.push('', r.content);
  return lines.join('\n');
}

function describeLint(r: RulesLintResult): string {
  const lines = r.findings.map((f: RuleFinding) => `${f.path ?? '(catalog)'}${f.line ? `:${f.line}` : ''}  ${f.severity}  ${f.code}  ${f.message}${f.fix ? `\n    fix: ${f.fix}` : ''}`);
  lines.push(`${r.counts.error} error${r.counts.error === 1 ? '' : 's'}, ${r.counts.warning} warning${r.counts.warning === 1 ? '' : 's'}, ${r.counts.info} note${r.counts.info === 1 ? '' : 's'} in ${r.root}`);
  return lines.join('\n');
}
