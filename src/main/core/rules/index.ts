/**
 * The project rule catalog (seed §4): discovery, parsing, conditions, overrides,
 * imports, identity, selection, rendering, hydrate, agent views and lint.
 */
export { agentView, type AgentName, type AgentView, type AgentViewFile } from './agentViews';
export { RuleCatalogBuilder, type RuleCatalogBuilderOptions, type RuleWatchSpec } from './builder';
export { RuleCatalog, type RuleCatalogData } from './catalog';
export { classifyProjectPath, classifyUserPath } from './classify';
export { completePath, type PathCompletionEntry } from './complete';
export { RuleProvenanceMismatch, RuleSourceOutsideRoot } from './errors';
export { explainRules, type ExplainOptions, type RuleExplanation } from './explain';
export { lintCatalog, type RuleLintReport } from './lint';
export { RULE_LIMITS } from './limits';
export type * from './types';
