import crypto from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionItem } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';

/** Who answered a permission request (see the contract's `PermissionItem.answeredBy`). */
export type AnsweredBy = 'user' | 'hook' | 'policy' | 'cancel' | 'shutdown' | 'nobody';

interface Pending {
  requestId: string;
  options: acp.PermissionOption[];
  resolve: (response: acp.RequestPermissionResponse) => void;
}

/**
 * Pending `session/request_permission` calls of one session. A request is first recorded (by the
 * `record` callback, which persists it as pending), then waits for an answer: the user's choice of
 * one of the agent's option ids, or `cancelled` (turn cancelled, session closed, agent gone).
 * Nothing is ever answered automatically here; auto-answers are the caller's explicit policy.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly recordRequest: (requestId: string, request: acp.RequestPermissionRequest) => void,
    private readonly recordAnswer: (requestId: string, outcome: 'selected' | 'cancelled', optionId: string | null, by: AnsweredBy) => void,
  ) {}

  /** Number of requests waiting for an answer. */
  get count(): number {
    return this.pending.size;
  }

  /** Ids of waiting requests, oldest first. */
  ids(): string[] {
    return [...this.pending.keys()];
  }

  /**
   * Records the request and waits for its answer. If `signal` aborts (the agent withdrew the
   * request), it is answered `cancelled`.
   * @returns the request id (synchronously, via `onRecorded`) and the eventual response
   */
  ask(request: acp.RequestPermissionRequest, signal: AbortSignal, onRecorded: (requestId: string) => void): Promise<acp.RequestPermissionResponse> {
    const requestId = crypto.randomUUID();
    const options = Array.isArray(request.options) ? request.options : [];
    const response = new Promise<acp.RequestPermissionResponse>((resolve) => {
      this.pending.set(requestId, { requestId, options, resolve });
    });
    this.recordRequest(requestId, request);
    onRecorded(requestId);
    if (signal.aborted) this.answer(requestId, null, 'cancel');
    else signal.addEventListener('abort', () => this.pending.has(requestId) && this.answer(requestId, null, 'cancel'), { once: true });
    return response;
  }

  /**
   * Answers a waiting request with an option id, or `cancelled` when `optionId` is null.
   * @throws AtriumError PERMISSION_NOT_FOUND (unknown or already answered) | INVALID_PARAMS (option not offered)
   */
  answer(requestId: string, optionId: string | null, by: AnsweredBy): void {
    const p = this.pending.get(requestId);
    if (!p) throw new AtriumError('PERMISSION_NOT_FOUND', `No pending permission request "${requestId}" in this session; it was already answered or the turn ended.`);
    if (optionId !== null && !p.options.some((o) => o.optionId === optionId)) {
      throw new AtriumError('INVALID_PARAMS', `"${optionId}" is not one of the agent's options: ${p.options.map((o) => o.optionId).join(', ')}.`);
    }
    this.pending.delete(requestId);
    this.recordAnswer(requestId, optionId === null ? 'cancelled' : 'selected', optionId, by);
    p.resolve(optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } });
  }

  /** Answers every waiting request `cancelled` (cancel bypasses the queue; close and crash too). */
  cancelAll(by: AnsweredBy): void {
    for (const id of [...this.pending.keys()]) this.answer(id, null, by);
  }
}

/**
 * PERMISSION_NOT_FOUND for answering a request that is no longer pending, saying what happened to
 * it from its recorded item (null: never recorded): cancelled because the agent stopped, cancelled
 * with its turn, or already answered (and by whom).
 */
export function notPendingError(requestId: string, item: Pick<PermissionItem, 'state' | 'optionId' | 'answeredBy'> | null): AtriumError {
  const head = `No pending permission request "${requestId}"`;
  if (!item) return new AtriumError('PERMISSION_NOT_FOUND', `${head} in this session.`);
  if (item.state === 'cancelled' && item.answeredBy === 'shutdown') {
    return new AtriumError('PERMISSION_NOT_FOUND', `${head}: it was cancelled because the agent stopped (the session was closed, Atrium quit or the agent exited), so it can no longer be answered. Send the prompt again to retry.`);
  }
  if (item.state === 'cancelled' && item.answeredBy === 'nobody') {
    return new AtriumError('PERMISSION_NOT_FOUND', `${head}: it was cancelled because no one could answer (the terminal that had to ask had no input), so it can no longer be answered.`);
  }
  if (item.state === 'cancelled') return new AtriumError('PERMISSION_NOT_FOUND', `${head}: it was cancelled with its turn, so it can no longer be answered.`);
  if (item.state === 'selected') {
    const by = item.answeredBy === 'hook' ? ' by a hook' : item.answeredBy === 'policy' ? " by the session's policy" : '';
    return new AtriumError('PERMISSION_NOT_FOUND', `${head}: it was already answered ("${item.optionId}")${by}.`);
  }
  return new AtriumError('PERMISSION_NOT_FOUND', `${head}: its agent stopped before it was answered; resume the session and send the prompt again.`);
}
