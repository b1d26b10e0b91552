import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { parseJsonText } from '../../formats/json';
import type { Layer } from '../precedence';
import { warn } from '../read';
import { validateManifest, type ManifestCheck } from './manifest';
import { directFileAccess, type FileReader } from '../../files/scan';

/** A plugin found on disk, before its enabled state is decided. */
export interface PluginCandidate {
  name: string;
  /** Absolute plugin folder. */
  root: string;
  /** Absolute manifest path, or null. */
  manifestPath: string | null;
  /** The object the plugin is defined by: plugin.json, or the marketplace entry (strict: false / no plugin.json). */
  manifest: Record<string, unknown> | null;
  entry: Record<string, unknown> | null;
  marketplace: string | null;
  source: 'user' | 'project';
  layer: Layer;
  check: ManifestCheck;
  /** On unless switched off by a settings layer: plugin folders yes (unless `defaultEnabled: false`), marketplace entries and installed plugins no. */
  defaultEnabled: boolean;
  /** For a plugin installed from a marketplace: its `installed_plugins.json` scope; else null. */
  installScope: string | null;
}

/** The manifest of a plugin folder: `.blade-plugin/plugin.json` (preferred) or `.claude-plugin/plugin.json`, or null. */
export async function findManifest(root: string): Promise<string | null> {
  for (const dir of ['.blade-plugin', '.claude-plugin']) {
    const p = path.join(root, dir, 'plugin.json');
    try {
      if ((await fs.stat(p)).isFile()) return p;
    } catch {
      // try the next
    }
  }
  return null;
}

/** Reads a JSON file (through `files`) with positions; null when missing, `value: undefined` (and a warning) when it does not parse. */
export async function readJson(file: string, shown: string, warnings: ExtensionWarning[], files: FileReader = directFileAccess): Promise<{ value: unknown; lineOf: (n: unknown) => number | null } | null> {
  let text: string;
  try {
    text = await files.readText(file);
  } catch {
    return null;
  }
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    warnings.push(warn(shown, parsed.line, `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, parsed.fix));
    return { value: undefined, lineOf: () => null };
  }
  return { value: parsed.value, lineOf: parsed.lineOf };
}

/** Where a plugin was found, for {@link readPlugin}. */
export interface PluginPlace {
  root: string;
  manifestPath: string | null;
  /** The marketplace entry that lists it, or null. */
  entry: Record<string, unknown> | null;
  marketplace: string | null;
  source: 'user' | 'project';
  layer: Layer;
  /** Name when the manifest has none (default: the folder name). */
  fallbackName?: string;
  /** Overrides the default enabled state (installed plugins are on only where `enabledPlugins` says so). */
  defaultEnabled?: boolean;
  installScope?: string | null;
}

/**
 * Reads one plugin: its manifest (or marketplace entry) validated like Claude Code does
 * (`manifest.ts`); an unreadable manifest makes it an `error` candidate. Never throws. Also used by
 * the trust review for plugin folders the bundle does not load. `files` reads the manifest.
 */
export async function readPlugin(place: PluginPlace, shown: (a: string) => string, files: FileReader = directFileAccess): Promise<PluginCandidate> {
  const { root, manifestPath, entry, marketplace, source, layer } = place;
  const folder = place.fallbackName ?? path.basename(root);
  const fileWarnings: ExtensionWarning[] = [];
  const json = manifestPath ? await readJson(manifestPath, shown(manifestPath), fileWarnings, files) : null;
  const strict = entry?.strict !== false;
  let manifest: Record<string, unknown> | null = json && isRecord(json.value) ? json.value : null;
  let check: ManifestCheck;
  if (manifestPath && json && json.value === undefined) {
    check = { name: typeof entry?.name === 'string' ? entry.name : folder, version: null, description: null, defaultEnabled: true, errors: fileWarnings, warnings: [] };
  } else if (manifest) {
    check = validateManifest(manifest, shown(manifestPath!), typeof entry?.name === 'string' ? entry.name : folder, json!.lineOf);
    if (entry && !strict && ['commands', 'agents', 'skills', 'hooks', 'mcpServers', 'lspServers', 'outputStyles'].some((k) => manifest![k] !== undefined)) {
      check.errors.push(warn(shown(manifestPath!), 1, 'the marketplace entry has "strict": false (the entry is the whole definition), but this plugin.json declares components too; Claude Code refuses to load it', 'Move the components into the marketplace entry, or drop "strict": false.'));
    }
  } else {
    manifest = entry;
    check = validateManifest(entry ?? {}, shown(root), folder);
    check.warnings = check.warnings.filter((w) => !/^unknown key|^no "name"/.test(w.message));
  }
  if (entry && manifest !== entry && typeof entry.name === 'string' && entry.name !== check.name) {
    check.warnings.push(warn(shown(manifestPath ?? root), null, `the marketplace lists it as "${entry.name}" but its manifest says "${check.name}"`, 'Use one name in both.'));
  }
  return { name: check.name, root, manifestPath, manifest, entry, marketplace, source, layer, check, defaultEnabled: place.defaultEnabled ?? (entry ? false : check.defaultEnabled), installScope: place.installScope ?? null };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
