import type { RuleAgentView as AgentView, RuleFileDetail, RulesExplainResult, RulesLintResult, RulesListResult } from '../../../shared/contract/rules';
import { AtriumError } from '../../../shared/errors';
import type { WorkspaceResourcesCache } from '../resources/cache';
import { agentView, type AgentName, type AgentViewOptions } from '../rules/agentViews';
import type { RuleCatalog } from '../rules/catalog';
import { completePath, type PathCompletionEntry } from '../rules/complete';
import { explainRules } from '../rules/explain';
import { lintCatalog } from '../rules/lint';
import { resolveStartFolder } from '../rules/startFolder';
import { presentAgentExplanation, presentAgentView, presentDetail, presentExplanation, presentLint, presentList } from '../rules/present';

/** Parameters of {@link RulesService.explain} (`atrium rules explain`). */
export interface ExplainParams {
  /** Target path, absolute or relative to the folder. */
  path: string;
  /** Start folder (default: the folder itself), absolute or relative to it. */
  from?: string;
  /** Rule ids already loaded in the session. */
  loaded?: readonly string[];
  /** Contextual budget in body bytes (default 32 KiB). */
  budget?: number;
  /** `atrium` (default) = Atrium's own selection; otherwise that agent's view. */
  agent?: 'atrium' | AgentName;
}

/**
 * The rule catalog's answers in the contract's JSON shapes, for any folder (a listed workspace or,
 * from the CLI, any directory). Handlers map a workspace id to its folder and call this; the CLI
 * calls it directly with its DIR argument. Catalogs come from the workspace resources cache.
 */
export class RulesService {
  /** `views.codexHome` = Codex's `$CODEX_HOME` for the Codex view (default `<homeDir>/.codex`). */
  constructor(
    private readonly resources: WorkspaceResourcesCache,
    private readonly views: AgentViewOptions = {},
  ) {}

  /** `rules.list`. @throws AtriumError for an unusable folder */
  list(dir: string): Promise<RulesListResult> {
    return this.withCatalog(dir, (c) => presentList(c));
  }

  /** `rules.file`. @throws AtriumError NOT_FOUND for an unknown id */
  file(dir: string, id: string): Promise<RuleFileDetail> {
    return this.withCatalog(dir, (c) => {
      const f = c.get(id);
      if (!f) throw new AtriumError('NOT_FOUND', `No rule file with id ${id} in ${c.root}. The file may have been renamed or deleted; refresh the list.`);
      return presentDetail(c, f);
    });
  }

  /**
   * `rules.explain`.
   * @throws AtriumError INVALID_PARAMS when `from` is outside the catalog root, PATH_NOT_FOUND /
   *   NOT_A_DIRECTORY when it does not exist or is a file
   */
  explain(dir: string, params: ExplainParams): Promise<RulesExplainResult> {
    return this.withCatalog(dir, async (c) => {
      if (params.agent && params.agent !== 'atrium') {
        const view = await agentView(c, params.agent, resolveStartFolder(c, params.from), c.resolveTarget(params.path), this.views);
        return presentAgentExplanation(c, view);
      }
      return presentExplanation(c, explainRules(c, { path: params.path, from: params.from, loaded: params.loaded, budget: params.budget }));
    });
  }

  /** `rules.agentView`. @throws AtriumError as {@link explain} for an unusable `from` */
  agentView(dir: string, agent: AgentName, from?: string, target?: string): Promise<AgentView> {
    return this.withCatalog(dir, async (c) => presentAgentView(await agentView(c, agent, resolveStartFolder(c, from), target ? c.resolveTarget(target) : null, this.views)));
  }

  /** `rules.lint`. */
  lint(dir: string): Promise<RulesLintResult> {
    return this.withCatalog(dir, (c) => presentLint(c, lintCatalog(c)));
  }

  /** `rules.completePath`. */
  completePath(dir: string, prefix: string, limit?: number): Promise<{ entries: PathCompletionEntry[] }> {
    return this.withCatalog(dir, (c) => ({ entries: completePath(c, prefix, limit) }));
  }

  /** `rules.refresh`: rebuild from disk now. */
  async refresh(dir: string): Promise<{ catalogSha256: string; buildMs: number }> {
    const bundle = await this.resources.refresh(dir);
    return { catalogSha256: bundle.rules.catalogSha256, buildMs: bundle.rules.buildMs };
  }

  /** The current catalog of a folder (pinned while `op` runs). */
  withCatalog<T>(dir: string, op: (catalog: RuleCatalog) => T | Promise<T>): Promise<T> {
    return this.resources.withResources(dir, (bundle) => op(bundle.rules));
  }
}
