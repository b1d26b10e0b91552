import { shellArg } from '../shellArg';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandPreview, ExtensionKind, ExtensionsListResult } from '../../../shared/contract/extensions';
import type { ExtensionsService } from '../../core/api/extensionsService';
import { runWithEngine, withGlobalOptions, type CliContext, type GlobalOptions } from '../context';

const KIND_KEYS: Record<ExtensionKind, keyof ExtensionsListResult> = {
  skills: 'skills',
  commands: 'commands',
  agents: 'agents',
  plugins: 'plugins',
  mcp: 'mcpServers',
  styles: 'styles',
  lsp: 'lspServers',
};

/**
 * `atrium resources DIR [--kind K]`: the extensions of any folder as the
 * resource bundle holds them. `--json` prints `extensions.list`'s result (src/shared/contract/
 * extensions.ts): `{root, trust, restrictedCounts, skills, commands, agents, plugins, mcpServers,
 * styles, lspServers, warnings, digest}`; with `--kind` only that kind's array (plus root, trust,
 * warnings). Project extensions load only when DIR is trusted.
 */
export function registerResourcesCommand(program: Command): void {
  withGlobalOptions(
    program
      .command('resources <dir>')
      .description('skills, commands, subagents, plugins, MCP servers, output styles and LSP servers of a folder')
      .addOption(new Option('--kind <kind>', 'only one kind').choices(Object.keys(KIND_KEYS))),
  ).action((dir: string, opts: GlobalOptions & { kind?: ExtensionKind }) =>
    withService(opts, async (service, { print }) => {
      const result = await service.list(path.resolve(dir), opts.kind);
      const shown = opts.kind ? { root: result.root, trust: result.trust, [KIND_KEYS[opts.kind]]: result[KIND_KEYS[opts.kind]], warnings: result.warnings } : result;
      print(shown, () => describeList(result, opts.kind));
    }),
  );
}

/**
 * `atrium command preview DIR NAME [ARGS…]`: the command's expansion with the arguments
 * (0-based `$N`, `$ARGUMENTS` = the words joined by spaces) and the shell embeds it would run. It
 * never runs them. `--json` prints `extensions.commandPreview`'s result without the token.
 */
export function registerCommandCommand(program: Command): void {
  const command = program.command('command').description('custom slash commands');
  withGlobalOptions(command.command('preview <dir> <name> [args...]').description('expand a command with arguments; lists its shell embeds without running them')).action(
    (dir: string, name: string, args: string[], opts: GlobalOptions) =>
      withService(opts, async (service, { print }) => {
        const preview = await service.commandPreview(path.resolve(dir), name, { args });
        const { confirmToken: _token, ...shown } = preview;
        print(shown, () => describePreview(preview));
      }),
  );
}

function withService(opts: GlobalOptions, fn: (service: ExtensionsService, ctx: CliContext) => Promise<void>): Promise<void> {
  return runWithEngine(opts, async (ctx) => {
    const [{ WorkspaceResourcesCache }, { ExtensionsService }] = await Promise.all([import('../../core/resources/cache'), import('../../core/api/extensionsService')]);
    const cache = new WorkspaceResourcesCache({ homeDir: ctx.engine.homeDir, trustGate: ctx.engine.trustGate, watch: false });
    try {
      await fn(new ExtensionsService(cache, ctx.engine.trustGate, ctx.engine.homeDir), ctx);
    } finally {
      await cache.close();
    }
  });
}

function describeList(r: ExtensionsListResult, kind?: ExtensionKind): string {
  const lines = [`Extensions of ${r.root} (${r.trust === 'trusted' ? 'trusted' : 'restricted mode: nothing from the project is active'})`];
  const section = (title: string, items: ReadonlyArray<{ id: string; source: string; path: string; status: string; warnings: unknown[] }>, extra: (i: never) => string = () => '', spelled = false) => {
    lines.push(`${title} (${items.length})`);
    for (const i of items) {
      lines.push(`  ${i.status.padEnd(10)} ${i.source.padEnd(7)} ${i.id}  ${i.path}${extra(i as never)}${i.warnings.length ? `  (${i.warnings.length} warning${i.warnings.length === 1 ? '' : 's'})` : ''}`);
      // an MCP server's warnings say what it reads and whether sessions withhold it: worth a line each
      if (spelled) for (const w of i.warnings as Array<{ message: string }>) lines.push(`      ! ${w.message}`);
    }
  };
  const want = (k: ExtensionKind) => !kind || kind === k;
  if (want('skills')) section('Skills', r.skills);
  if (want('commands')) section('Commands', r.commands, (c: ExtensionsListResult['commands'][number]) => (c.hasShellEmbeds ? `  runs: ${c.shellEmbeds.join('; ')}` : ''));
  if (want('agents')) section('Subagents', r.agents);
  if (want('plugins')) section('Plugins', r.plugins.map((p) => ({ ...p, status: p.status })), (p: ExtensionsListResult['plugins'][number]) => `  ${p.version ?? ''}`);
  if (want('mcp')) section('MCP servers', r.mcpServers, (s: ExtensionsListResult['mcpServers'][number]) => `  ${s.transport}: ${s.command ? [s.command, ...s.args].join(' ') : (s.url ?? '')}`, true);
  if (want('styles')) section('Output styles', r.styles);
  if (want('lsp')) section('LSP servers', r.lspServers, (s: ExtensionsListResult['lspServers'][number]) => `  ${s.command ?? ''} for ${s.extensions.join(' ')}`);
  if (r.trust === 'restricted') {
    const c = r.restrictedCounts;
    const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
    const parts = [n(c.skills, 'skill', 'skills'), n(c.commands, 'command', 'commands'), n(c.agents, 'subagent', 'subagents'), n(c.plugins, 'plugin', 'plugins'), n(c.mcp, 'MCP server', 'MCP servers'), n(c.styles, 'style', 'styles'), n(c.lsp, 'LSP server', 'LSP servers')];
    const dir = shellArg(r.root);
    lines.push(`Trusting the folder would activate: ${parts.join(', ')} (atrium trust review ${dir} lists them; atrium trust set ${dir} trusted)`);
  }
  for (const w of r.warnings) lines.push(`warning: ${w.path}${w.line ? `:${w.line}` : ''} ${w.message}${w.fix ? ` (fix: ${w.fix})` : ''}`);
  return lines.join('\n');
}

function describePreview(p: CommandPreview): string {
  const lines = [`/${p.name} (${p.path}) with ${p.args.length ? p.args.map((a) => JSON.stringify(a)).join(' ') : 'no arguments'} — $0 is the first argument`, '', p.text, ''];
  if (p.embeds.length) {
    lines.push('Shell embeds (not run):');
    for (const e of p.embeds) lines.push(`  line ${e.line}: ${e.command}`);
  }
  for (const f of p.fileRefs) lines.push(`@${f.path}: ${f.status}${f.reason ? ` (${f.reason})` : ''}`);
  for (const w of p.warnings) lines.push(`warning: ${w.path}${w.line ? `:${w.line}` : ''} ${w.message}`);
  return lines.join('\n');
}
