import { AtriumError } from '../../../shared/errors';

/**
 * The cache already holds its hard cap of workspace bundles, all busy (in flight or pinned), so a
 * new workspace cannot be opened (seed §1.2: a 65th concurrent workspace fails; no entry added).
 */
export class WorkspaceResourceCapacityError extends AtriumError {
  constructor(readonly capacity: number) {
    super('RESOURCE_CAPACITY', `Workspace resource capacity is full (${capacity}). Close sessions in other workspaces and try again.`);
    this.name = 'WorkspaceResourceCapacityError';
  }
}
