import { extensionsMember } from '../extensions/member';
import { RuleCatalogBuilder } from '../rules/builder';
import type { ResourceMember, ResourceMemberFactory } from './types';
import type { RuleCatalog } from '../rules/catalog';

/**
 * The rule catalog member (issue 4 §1: "the rule catalog is the first member of the bundle").
 * Builds with `RuleCatalogBuilder`, applies file changes incrementally, and reports itself stale
 * when the TrustGate's answer changed since the last build.
 */
export const rulesMember: ResourceMemberFactory<'rules'> = {
  key: 'rules',
  async create(context): Promise<ResourceMember<RuleCatalog>> {
    const builder = new RuleCatalogBuilder({ workspaceDir: context.workspaceDir, homeDir: context.homeDir, gate: context.trustGate });
    let value = await builder.build();
    return {
      get value() {
        return value;
      },
      snapshot: () => value.snapshot(),
      watchSpec: () => builder.watchSpec(),
      async applyChanges(paths) {
        try {
          const result = await builder.update(paths);
          const replaced = result.catalog !== value;
          value = result.catalog;
          return { replaced, notify: result.changed };
        } catch (error) {
          console.error(`[atrium] rule catalog update failed for ${context.workspaceDir}:`, error);
          return { replaced: false, notify: false };
        }
      },
      isStale: () => builder.trustChanged(),
      async refresh() {
        value = await builder.build();
      },
      dispose() {},
    };
  },
};

/** Members of every bundle, in initialisation order (later issues append theirs). */
export const DEFAULT_MEMBERS: readonly ResourceMemberFactory[] = [rulesMember, extensionsMember];
