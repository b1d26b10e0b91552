/** The workspace resources cache (seed §1). */
export { WorkspaceResources } from './bundle';
export { WorkspaceResourcesCache, defaultScan, type WorkspaceResourcesCacheOptions } from './cache';
export { WorkspaceResourceCapacityError } from './errors';
export { DEFAULT_MEMBERS, extensionsMember, rulesMember } from './members';
export type * from './types';
