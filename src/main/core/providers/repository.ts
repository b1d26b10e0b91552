import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson, sha256Hex } from '../formats/canonicalJson';
import { parseDotenv } from '../formats/dotenv';
import { parseJsonText } from '../formats/json';
import { isRecord } from '../formats/text';
import { parseTomlText } from '../formats/toml';
import { isSecretVariable, redirectsModelTraffic } from '../credentials/modelVariables';

/** A repository file's model endpoint settings (see `RepositoryEndpoint` in the contract, without approval state). */
export interface EndpointDefinition {
  path: string;
  tool: 'claude' | 'codex' | 'gemini' | 'dotenv';
  variables: Record<string, string>;
  digest: string;
  /** Which agent presets the definition is for (`claude`, `codex`, `gemini`). */
  agents: string[];
  /** True when Atrium applies it itself (Claude: launched without setting sources, so only Atrium can). */
  appliedByAtrium: boolean;
  /**
   * Who applies it: `atrium` (after trust and approval), `agent` (the agent reads the file itself
   * once the folder is trusted), `none` (nothing under Atrium's launch reads it: Codex 0.166
   * ignores a project's `model_provider` / `model_providers`).
   */
  appliedBy: 'atrium' | 'agent' | 'none';
}

/** Files larger than this are not read for endpoint settings (they are not settings files). */
const MAX_BYTES = 256 * 1024;

/** A regular file's text below `dir` (never following a symlink out of it), or null. */
function readRegular(dir: string, rel: string): string | null {
  const file = path.join(dir, rel);
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The digest of a definition: sha256 hex of the canonical JSON of its path, tool and variables. */
export function endpointDigest(def: Pick<EndpointDefinition, 'path' | 'tool' | 'variables'>): string {
  return sha256Hex(canonicalJson({ path: def.path, tool: def.tool, variables: def.variables }));
}

function make(rel: string, tool: EndpointDefinition['tool'], variables: Record<string, string>, agents: string[], appliedByAtrium: boolean): EndpointDefinition | null {
  if (Object.keys(variables).length === 0) return null;
  const appliedBy = appliedByAtrium ? 'atrium' : tool === 'codex' && variables.model === undefined ? 'none' : 'agent';
  return { path: rel, tool, variables, agents, appliedByAtrium, appliedBy, digest: endpointDigest({ path: rel, tool, variables }) };
}

/** Model-traffic variables of an `env` object (secrets left out: a repository's key is never applied or shown). */
function trafficEnv(env: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(env)) return out;
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string' && redirectsModelTraffic(k) && !isSecretVariable(k)) out[k] = v;
  return out;
}

/** Model-traffic variables of a dotenv file. */
function dotenvTraffic(text: string): Record<string, string> {
  return trafficEnv(Object.fromEntries([...parseDotenv(text)].map(([k, v]) => [k, v.value])));
}

/**
 * The model endpoint definitions a repository supplies, read (never run) from `dir`:
 * `.claude/settings.json` and `.claude/settings.local.json` `env` (Claude Code; Atrium launches
 * Claude without setting sources, so only Atrium applies them, after approval), `.codex/config.toml`
 * `model`, `model_provider` and `model_providers.<id>.base_url`, `.gemini/settings.json` `model`,
 * and `.env` / `.gemini/.env` files (Codex and Gemini read these themselves once the folder is
 * trusted). Files that do not parse give no definition (the trust review reports them).
 */
export function repositoryEndpoints(dir: string): EndpointDefinition[] {
  const out: EndpointDefinition[] = [];
  for (const rel of ['.claude/settings.json', '.claude/settings.local.json']) {
    const text = readRegular(dir, rel);
    if (text === null) continue;
    const parsed = parseJsonText(text);
    if (!parsed.ok || !isRecord(parsed.value)) continue;
    const def = make(rel, 'claude', trafficEnv(parsed.value.env), ['claude'], true);
    if (def) out.push(def);
  }
  const codex = readRegular(dir, '.codex/config.toml');
  if (codex !== null) {
    const parsed = parseTomlText(codex);
    if (parsed.ok) {
      const vars: Record<string, string> = {};
      const root = parsed.value;
      if (typeof root.model_provider === 'string') vars.model_provider = root.model_provider;
      if (typeof root.model === 'string') vars.model = root.model;
      if (isRecord(root.model_providers)) {
        for (const [id, p] of Object.entries(root.model_providers)) {
          if (!isRecord(p)) continue;
          if (typeof p.base_url === 'string') vars[`model_providers.${id}.base_url`] = p.base_url;
          if (typeof p.env_key === 'string') vars[`model_providers.${id}.env_key`] = p.env_key;
        }
      }
      const def = make('.codex/config.toml', 'codex', vars, ['codex'], false);
      if (def) out.push(def);
    }
  }
  const gemini = readRegular(dir, '.gemini/settings.json');
  if (gemini !== null) {
    const parsed = parseJsonText(gemini, { jsonc: true });
    if (parsed.ok && isRecord(parsed.value)) {
      const vars: Record<string, string> = {};
      const model = parsed.value.model;
      if (typeof model === 'string') vars.model = model;
      else if (isRecord(model) && typeof model.name === 'string') vars['model.name'] = model.name;
      const def = make('.gemini/settings.json', 'gemini', vars, ['gemini'], false);
      if (def) out.push(def);
    }
  }
  for (const rel of ['.env', '.gemini/.env']) {
    const text = readRegular(dir, rel);
    if (text === null) continue;
    const def = make(rel, 'dotenv', dotenvTraffic(text), ['gemini'], false);
    if (def) out.push(def);
  }
  return out;
}
