import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { warn } from '../read';

/** Type of each known manifest key (formats.md §2.10); a wrong type makes the plugin fail to load, as in Claude Code. */
const KNOWN: Record<string, Array<'string' | 'object' | 'array' | 'boolean'>> = {
  $schema: ['string'],
  name: ['string'],
  displayName: ['string'],
  version: ['string'],
  description: ['string'],
  author: ['object', 'string'],
  homepage: ['string'],
  repository: ['string', 'object'],
  license: ['string'],
  keywords: ['array'],
  metadata: ['object', 'string', 'array', 'boolean'],
  experimental: ['object', 'string', 'array', 'boolean'],
  defaultEnabled: ['boolean'],
  skills: ['string', 'array'],
  commands: ['string', 'array', 'object'],
  agents: ['string', 'array'],
  hooks: ['string', 'object', 'array'],
  mcpServers: ['string', 'object', 'array'],
  outputStyles: ['string', 'array'],
  lspServers: ['string', 'object', 'array'],
  userConfig: ['object'],
  channels: ['array'],
  dependencies: ['array', 'object'],
  workflows: ['string', 'array'],
  settings: ['object', 'string'],
  bladeVersion: ['string'],
  // marketplace entry keys (strict: false entries are the whole definition)
  source: ['string', 'object'],
  strict: ['boolean'],
  category: ['string'],
  tags: ['array'],
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const PATH_KEYS = ['skills', 'commands', 'agents', 'hooks', 'mcpServers', 'outputStyles', 'lspServers', 'workflows'];

/** A validated manifest. */
export interface ManifestCheck {
  name: string;
  version: string | null;
  description: string | null;
  defaultEnabled: boolean;
  /** Problems that stop the plugin from loading (status `error`). */
  errors: ExtensionWarning[];
  warnings: ExtensionWarning[];
}

/**
 * Validates a plugin manifest the way Claude Code does (formats.md §2.10), leniently: only `name`
 * matters and, when absent, the folder name is used; `version` and `description` are optional
 * (the anchor rejected Claude plugins without them, seed §15). A known key of the wrong type is an
 * error (the plugin does not load); an unknown key is a warning with a near-miss suggestion; a
 * non-kebab-case name, a non-semver version, and component paths that are not `./…` are warnings;
 * a path escaping the plugin (`../`) is an error. `lineOf` maps a parsed node to its line.
 */
export function validateManifest(manifest: unknown, shown: string, folderName: string, lineOf: (node: unknown) => number | null = () => null): ManifestCheck {
  const errors: ExtensionWarning[] = [];
  const warnings: ExtensionWarning[] = [];
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    errors.push(warn(shown, 1, 'the manifest is not a JSON object', 'Write { "name": "my-plugin" }.'));
    return { name: folderName, version: null, description: null, defaultEnabled: true, errors, warnings };
  }
  const m = manifest as Record<string, unknown>;
  for (const [key, value] of Object.entries(m)) {
    const types = KNOWN[key];
    const at = lineOf(value);
    if (!types) {
      const near = nearMiss(key);
      warnings.push(warn(shown, at, `unknown key "${key}" is ignored${near ? ` (did you mean "${near}"?)` : ''}`, near ? `Rename it to "${near}".` : 'Remove it.'));
      continue;
    }
    const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    if (!types.includes(type as never)) errors.push(warn(shown, at, `"${key}" must be ${types.join(' or ')}, not ${type}; Claude Code refuses to load the plugin`, `Fix the value of "${key}".`));
  }
  let name = folderName;
  if (typeof m.name === 'string' && m.name.trim()) {
    name = m.name.trim();
    if (!KEBAB.test(name) || name.length < 2 || name.length > 64) warnings.push(warn(shown, lineOf(m.name), `name "${name}" is not kebab-case (2–64 lowercase letters, digits, hyphens)`, `Use "name": "${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}".`));
  } else if (m.name === undefined) {
    warnings.push(warn(shown, 1, `no "name"; the folder name "${folderName}" is used`, `Add "name": "${folderName}".`));
  }
  const version = typeof m.version === 'string' ? m.version : null;
  if (version !== null && !SEMVER.test(version)) warnings.push(warn(shown, lineOf(m.version), `version "${version}" is not semantic versioning (1.2.3)`, 'Write "version": "1.0.0".'));
  for (const key of PATH_KEYS) {
    const values = typeof m[key] === 'string' ? [m[key] as string] : Array.isArray(m[key]) ? (m[key] as unknown[]).filter((v): v is string => typeof v === 'string') : [];
    for (const v of values) {
      if (v.split(/[\\/]/).includes('..') || v.startsWith('/')) errors.push(warn(shown, lineOf(m[key]), `"${key}" points outside the plugin (${v})`, 'Keep plugin files inside the plugin folder ("./…").'));
      else if (!v.startsWith('./')) warnings.push(warn(shown, lineOf(m[key]), `"${key}" path "${v}" should start with "./"`, `Write "./${v}".`));
    }
  }
  return { name, version, description: typeof m.description === 'string' ? m.description : null, defaultEnabled: m.defaultEnabled !== false, errors, warnings };
}

function nearMiss(key: string): string | null {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  for (const known of Object.keys(KNOWN)) if (norm(known) === norm(key)) return known;
  for (const known of Object.keys(KNOWN)) if (known.length > 3 && distance(known.toLowerCase(), key.toLowerCase()) <= 2) return known;
  return null;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
