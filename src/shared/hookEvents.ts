/**
 * Events Atrium fires today (`hooks.run`), in the contract's order; other events are listed and
 * approvable but never fire yet. A plain list (the contract's `HookEvent` enum is built from it) so
 * the command line can name them without loading the request contract.
 */
export const HOOK_EVENTS = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'Notification'] as const;
