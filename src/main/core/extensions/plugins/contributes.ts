import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { parseJsonText } from '../../formats/json';
import { commandsFromFiles, scanCommands } from '../commands/scan';
import { summarizeHooks } from '../hookCount';
import { lspFromMap, readLspFile } from '../lsp/scan';
import { readMarkdown } from '../read';
import type { ScanRoot } from '../roots';
import { skillFromFile } from '../skills/parse';
import { scanSkills } from '../skills/scan';
import { scanStyles } from '../styles/scan';
import { agentFromFile, scanAgents } from '../subagents/scan';
import type { AgentRecord, CommandRecord, LspRecord, SkillRecord, StyleRecord } from '../types';
import { directFileAccess, type FileReader } from '../../files/scan';

/** Everything a plugin brings (before precedence). */
export interface PluginResources {
  skills: SkillRecord[];
  commands: CommandRecord[];
  agents: AgentRecord[];
  styles: StyleRecord[];
  lspServers: LspRecord[];
  hooks: number;
  warnings: ExtensionWarning[];
}

/** What {@link collectPluginResources} needs of a plugin. */
export interface PluginLike {
  name: string;
  root: string;
  manifest: Record<string, unknown> | null;
  entry: Record<string, unknown> | null;
  source: 'user' | 'project';
}

/**
 * A plugin's resources (formats.md §2.10, seed §12), all namespaced `plugin:<plugin>:<name>`:
 * `commands/**\/*.md` and `agents/**\/*.md` (a manifest `commands`/`agents` list *replaces* the
 * folders), `skills/<name>/SKILL.md` plus manifest `skills` folders (which *add*) plus a root
 * `SKILL.md`, `output-styles/` (replaced by `outputStyles`), `.lsp.json` and manifest/marketplace
 * `lspServers` (`${CLAUDE_PLUGIN_ROOT}` expanded), and the number of hooks in `hooks/hooks.json`
 * or the manifest. Every file is read through `files` (a build's scan). Never throws.
 */
export async function collectPluginResources(p: PluginLike, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<PluginResources> {
  const root = (dir: string): ScanRoot => ({ dir, layer: 'plugin', source: 'plugin', tool: 'plugin', plugin: p.name });
  const out: PluginResources = { skills: [], commands: [], agents: [], styles: [], lspServers: [], hooks: 0, warnings: [] };
  const m = p.manifest ?? {};
  const paths = (key: string): string[] | null => {
    const v = m[key];
    if (typeof v === 'string') return [v];
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
    return null;
  };
  const inside = (rel: string) => {
    const abs = path.resolve(p.root, rel);
    return abs === p.root || abs.startsWith(p.root + path.sep) ? abs : null;
  };
  const split = async (rels: string[]) => {
    const dirs: string[] = [];
    const paths: string[] = [];
    for (const rel of rels) {
      const abs = inside(rel);
      if (!abs) continue;
      const st = await fs.stat(abs).catch(() => null);
      if (st?.isDirectory()) dirs.push(abs);
      else if (st?.isFile()) paths.push(abs);
    }
    return { dirs, files: paths };
  };

  // commands (manifest list replaces commands/)
  const cmd = await split(paths('commands') ?? ['commands']);
  for (const dir of cmd.dirs) {
    const r = await scanCommands(root(dir), shown, files);
    out.commands.push(...r.commands);
    out.warnings.push(...r.warnings);
  }
  out.commands.push(...(await commandsFromFiles(cmd.files, root(p.root), shown, files)));

  // agents (manifest list replaces agents/)
  const ag = await split(paths('agents') ?? ['agents']);
  for (const dir of ag.dirs) {
    const r = await scanAgents(root(dir), shown, files);
    out.agents.push(...r.agents);
    out.warnings.push(...r.warnings);
  }
  for (const f of ag.files) out.agents.push(await agentFromFile(f, root(p.root), shown, files));

  // skills (manifest folders add to skills/), plus a root SKILL.md
  const sk = await split(['skills', ...(paths('skills') ?? [])]);
  for (const dir of [...new Set(sk.dirs)]) {
    const r = await scanSkills(root(dir), shown, files);
    out.skills.push(...r.skills);
    out.warnings.push(...r.warnings);
  }
  const rootSkill = path.join(p.root, 'SKILL.md');
  if (await fs.stat(rootSkill).then((s) => s.isFile()).catch(() => false)) out.skills.push(skillFromFile(await readMarkdown(rootSkill, shown(rootSkill), undefined, files), path.basename(p.root), root(p.root), rootSkill, shown(rootSkill)));

  // output styles (outputStyles replaces output-styles/)
  const st = await split(paths('outputStyles') ?? ['output-styles']);
  for (const dir of st.dirs) {
    const r = await scanStyles(root(dir), shown, files);
    out.styles.push(...r.styles);
    out.warnings.push(...r.warnings);
  }

  // LSP servers
  const origin = (abs: string) => ({ source: 'plugin' as const, plugin: p.name, path: shown(abs), absolutePath: abs, pluginRoot: p.root });
  const lspFile = path.join(p.root, '.lsp.json');
  const fromFile = await readLspFile(origin(lspFile), files);
  out.lspServers.push(...fromFile.servers);
  out.warnings.push(...fromFile.warnings);
  for (const def of [m.lspServers, p.entry && p.entry !== p.manifest ? p.entry.lspServers : undefined]) {
    if (typeof def === 'string') {
      const abs = inside(def);
      if (abs && abs !== lspFile) {
        const r = await readLspFile(origin(abs), files);
        out.lspServers.push(...r.servers);
        out.warnings.push(...r.warnings);
      }
    } else if (def !== undefined && typeof def === 'object' && def !== null) {
      const r = lspFromMap(def, origin(p.root));
      out.lspServers.push(...r.servers);
      out.warnings.push(...r.warnings);
    }
  }

  out.hooks = await countHooks(p, inside, files);
  return out;
}

async function countHooks(p: PluginLike, inside: (rel: string) => string | null, files: FileReader): Promise<number> {
  const m = p.manifest ?? {};
  if (m.hooks && typeof m.hooks === 'object') return summarizeHooks(m.hooks)?.count ?? 0;
  const file = typeof m.hooks === 'string' ? inside(m.hooks) : path.join(p.root, 'hooks', 'hooks.json');
  if (!file) return 0;
  const text = await files.readText(file).catch(() => null);
  if (text === null) return 0;
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  return parsed.ok ? (summarizeHooks(parsed.value)?.count ?? 0) : 0;
}
