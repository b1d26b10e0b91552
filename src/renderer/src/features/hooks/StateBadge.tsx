import type { HookState, McpServerState } from '../../../../shared/contract';

const LABEL: Record<HookState, string> = {
  approved: 'approved',
  modified: 'modified',
  unapproved: 'needs approval',
  invalid: 'invalid',
  disabled: 'disabled',
};

const TITLE: Record<HookState, string> = {
  approved: 'Its exact digest is approved: it runs when its event fires.',
  modified: 'It changed since you approved it (definition or script): it does not run until you approve the new version.',
  unapproved: 'Never approved: it does not run.',
  invalid: 'A schema mistake: it can never run. See its warnings.',
  disabled: 'Switched off by the configuration (disableAllHooks, hooks.enabled).',
};

/** The state of a hook or MCP server as a small badge (also used by the trust review). */
export function HookStateBadge({ state, heldBack = false }: { state: HookState | McpServerState; heldBack?: boolean }) {
  const title = heldBack ? `${TITLE[state]} The folder is restricted: nothing from it runs until you trust it.` : TITLE[state];
  return (
    <span className={`badge hook-state hook-state-${state}`} data-hook-state={state} title={title}>
      {LABEL[state]}
    </span>
  );
}
