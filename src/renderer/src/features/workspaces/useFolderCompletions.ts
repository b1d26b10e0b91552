import { useCallback } from 'react';
import { useCompletions } from '../../components/useCompletions';
import { useApp } from '../../state/appStore';

/**
 * Folder names completing a typed path (`workspaces.completeFolder`: `~` expands, folders and
 * folder links only), while `active`; [] for an empty field. Add workspace and Locate… share it.
 */
export function useFolderCompletions(path: string, active: boolean): string[] {
  const client = useApp((s) => s.client);
  const fetchFolders = useCallback((prefix: string) => (prefix.trim() ? client!.request('workspaces.completeFolder', { prefix }).then((r) => r.folders) : Promise.resolve([])), [client]);
  return useCompletions(path, client && active ? fetchFolders : null);
}
