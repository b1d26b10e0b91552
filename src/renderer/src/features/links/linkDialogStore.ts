import { create } from 'zustand';
import { classifyLink, type ClassifiedLink } from '../../../../shared/externalLink';

/** The one link confirmation the app shows at a time, and where focus goes back when it closes. */
interface LinkDialogState {
  link: ClassifiedLink | null;
  returnFocus: HTMLElement | null;
  /** Classifies `raw` (an href as written) and opens the dialog for it; `from` gets focus back. */
  show(raw: string, from: HTMLElement | null): void;
  close(): void;
}

export const useLinkDialog = create<LinkDialogState>((set) => ({
  link: null,
  returnFocus: null,
  show: (raw, from) => set({ link: classifyLink(raw), returnFocus: from }),
  close: () => set({ link: null }),
}));
