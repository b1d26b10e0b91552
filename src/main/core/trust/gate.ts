/**
 * Restricted mode's single question: may project-level resources (rules, hooks, MCP servers,
 * skills, commands, subagents, plugins, output styles, LSP servers, settings) found under `dir`
 * be activated? Untrusted and undecided both answer false: only user-level resources are active.
 * Every capability that reads repository-supplied resources asks this gate and nothing else.
 */
export interface TrustGate {
  /** `dir` is an absolute path (canonicalised by the implementation). Never throws. */
  mayActivateProjectResources(dir: string): boolean;
}

/** A gate with a fixed answer, for tests and for callers that have already decided. */
export const fixedGate = (answer: boolean): TrustGate => ({ mayActivateProjectResources: () => answer });
