import { relativeToRoot } from './paths';
import type { RuleTrustMode } from './types';

/**
 * The trust answer the rules need (restricted mode's one question, answered by the trust gate above
 * and passed in): may project resources under `dir` (absolute) be activated? Never throws.
 */
export interface RulesTrust {
  mayActivateProjectResources(dir: string): boolean;
}

/** The trust answer a catalog was built with. */
export interface RuleTrust {
  mode: RuleTrustMode;
  /**
   * Root-relative folder whose project files may be activated ('' = everything, null = nothing).
   * `partial`: only the workspace folder's subtree, when the gate trusts the workspace folder but
   * not the repository root above it.
   */
  prefix: string | null;
}

/**
 * Asks the trust answer (the engine's TrustGate) what the catalog may activate: everything when
 * it trusts the catalog root; only the workspace folder's subtree when the root is not trusted but
 * the workspace folder (a subfolder of the repository) is; nothing otherwise (restricted mode:
 * project files are listed by name only). User-level files are never gated. Never throws.
 */
export function decideTrust(gate: RulesTrust, root: string, workspaceDir: string): RuleTrust {
  if (gate.mayActivateProjectResources(root)) return { mode: 'trusted', prefix: '' };
  const rel = relativeToRoot(root, workspaceDir);
  if (rel && gate.mayActivateProjectResources(workspaceDir)) return { mode: 'partial', prefix: rel };
  return { mode: 'restricted', prefix: null };
}

/** True when root-relative `rel` lies in the trusted part. */
export function isTrustedPath(trust: RuleTrust, rel: string): boolean {
  if (trust.prefix === null) return false;
  return trust.prefix === '' || rel.startsWith(`${trust.prefix}/`);
}

/** True when two trust answers differ (the catalog must be rebuilt). */
export function trustDiffers(a: RuleTrust, b: RuleTrust): boolean {
  return a.mode !== b.mode || a.prefix !== b.prefix;
}
