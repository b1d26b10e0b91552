import { create } from 'zustand';

/** Whether the New session dialog is open, and for which workspace (preselected). */
export interface NewSessionState {
  open: boolean;
  workspaceId: string | null;
  show(workspaceId?: string | null): void;
  hide(): void;
}

/** The New session dialog's open state, shared by every "New session" button. */
export const useNewSession = create<NewSessionState>((set) => ({
  open: false,
  workspaceId: null,
  show(workspaceId = null) {
    set({ open: true, workspaceId });
  },
  hide() {
    set({ open: false });
  },
}));
