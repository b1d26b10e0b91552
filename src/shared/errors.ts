/**
 * Error codes that cross the IPC / WebSocket boundary. The renderer switches on `code`, shows
 * `message` (written for a person: what happened and what to do next). Stacks never cross.
 */
export const ERROR_CODES = [
  'INVALID_PARAMS',
  'UNKNOWN_METHOD',
  'NOT_FOUND',
  'PATH_NOT_ABSOLUTE',
  'PATH_NOT_FOUND',
  'NOT_A_DIRECTORY',
  'PATH_UNREADABLE',
  'DB_TOO_NEW',
  'DB_OPEN_FAILED',
  'UNSUPPORTED',
  'FORBIDDEN_SENDER',
  'INTERNAL',
  'TRUST_REFUSED',
  'TRUST_NO_PARENT',
  'PATH_OUTSIDE_WORKSPACE',
  'NOT_A_FILE',
  'RESOURCE_CAPACITY',
  'RULE_PROVENANCE_MISMATCH',
  // sessions
  'AGENT_NOT_FOUND',
  'AGENT_NOT_INSTALLED',
  'AGENT_INSTALL_FAILED',
  'AGENT_START_FAILED',
  'AGENT_UNSUPPORTED',
  'AGENT_ERROR',
  'NODE_UNAVAILABLE',
  'SESSION_NOT_FOUND',
  'SESSION_CLOSED',
  'SESSION_PAUSED',
  'PERMISSION_NOT_FOUND',
  'PATH_OUTSIDE_SESSION',
  'SESSION_HOSTED_ELSEWHERE',
  // sessions that obey the workspace
  'PROMPT_BLOCKED',
  'WORKTREE_FAILED',
  'WORKTREE_DIRTY',
  'HANDOVER_INVALID',
  'HANDOVER_RATE_LIMITED',
  'HANDOVER_REQUIRED',
  // hooks
  'HOOK_DIGEST_MISMATCH',
  'HOOK_INVALID',
  'HOOK_NOT_APPROVED',
  'HOOK_UNCOVERED',
  // extensions
  'EXTENSION_CHANGED',
  'COMMAND_NOT_CONFIRMED',
  // desktop app
  'UPDATE_NOT_READY',
  // model providers
  'CREDENTIALS_UNAVAILABLE',
] as const;

/** One of {@link ERROR_CODES}. Capabilities append their codes to the list above. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The serialised form of an error on the wire: `{code, message}`, never a stack. */
export interface WireError {
  code: ErrorCode;
  message: string;
}

/** An expected failure with a stable code. Anything else is reported as `INTERNAL`. */
export class AtriumError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AtriumError';
  }
}

/** Converts anything thrown into a {@link WireError}; unknown errors keep their message, lose their stack. */
export function toWireError(error: unknown): WireError {
  if (error instanceof AtriumError) return { code: error.code, message: error.message };
  if (isWireError(error)) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Internal error: ${message}` };
}

/** True when `value` already has the `{code, message}` wire shape with a known code. */
export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WireError).message === 'string' &&
    (ERROR_CODES as readonly string[]).includes((value as WireError).code)
  );
}
