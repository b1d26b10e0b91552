import readline from 'node:readline';
import type { ItemAppend, PermissionItem, Session, TranscriptItem } from '../../../shared/contract';
import type { Engine } from '../../core/engine';

/** How the CLI answers permission requests: ask on stdin, or a fixed policy for scripts and CI. */
export type PermissionPolicy = 'ask' | 'allow-once' | 'reject';

/** The option a fixed policy picks, or null (answer `cancelled`) when the agent offers none that fits. */
export function pickOption(permission: PermissionItem, policy: Exclude<PermissionPolicy, 'ask'>): string | null {
  const order = policy === 'allow-once' ? ['allow_once'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const option = permission.options.find((o) => o.kind === kind);
    if (option) return option.optionId;
  }
  return null;
}

/**
 * Who answered a permission request, in words: `by you` (a person, on any surface), the fixed
 * policy (`--on-permission allow-once` when it is this terminal's own, else `by a terminal's
 * --on-permission`), `by a hook`, `turn stopped` (cancelled), `agent stopped` (shutdown), or
 * {@link NO_ONE_COULD_ANSWER} (the asking terminal had no input).
 */
export function answeredByText(item: PermissionItem, policy: PermissionPolicy): string {
  switch (item.answeredBy) {
    case 'policy':
      return policy === 'ask' ? "by a terminal's --on-permission" : `--on-permission ${policy}`;
    case 'hook':
      return 'by a hook';
    case 'cancel':
      return 'turn stopped';
    case 'shutdown':
      return 'agent stopped';
    case 'nobody':
      return NO_ONE_COULD_ANSWER;
    default:
      return 'by you';
  }
}

/** How a request cancelled for lack of anyone to ask reads (`answeredBy: nobody`), live and in `session show`. */
export const NO_ONE_COULD_ANSWER = 'no one could answer: the terminal had no input; pass --on-permission allow-once or reject';

/**
 * Who answers for a surface: a person (`user`), its fixed `--on-permission` policy (`policy`,
 * recorded as `answeredBy: policy`), or nobody, because its input ended before an answer
 * (`nobody`; only with a cancel).
 */
export type FeedAnswerer = 'user' | 'policy' | 'nobody';

/**
 * Where a printer gets a session's pushed events and answers permissions: the in-process engine,
 * or a running Atrium over its WebSocket (`atrium session pickup`).
 */
export interface SessionFeed {
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  /** `by`: who answered ({@link FeedAnswerer}); `optionId` null cancels the request. */
  answerPermission(sessionId: string, requestId: string, optionId: string | null, by: FeedAnswerer): void | Promise<unknown>;
  /** This surface's id: permission requests routed to another surface are left to it. */
  surfaceId?: string;
  /**
   * Reads one transcript item as stored now (null: no such item). Used when an append arrives for
   * an item this printer does not have up to the append's offset (it attached mid-stream). Absent:
   * such appends are not printed.
   */
  item?(sessionId: string, itemId: number): TranscriptItem | null | Promise<TranscriptItem | null>;
}

/** `sessions.answerPermission` params for a remote Atrium: `optionId` null cancels; `by` maps to `byPolicy` / `noOneToAsk`. */
export function answerParams(sessionId: string, requestId: string, optionId: string | null, by: FeedAnswerer) {
  const who = by === 'policy' ? { byPolicy: true } : by === 'nobody' ? { noOneToAsk: true } : {};
  return optionId === null ? { sessionId, requestId, cancelled: true, ...who } : { sessionId, requestId, optionId, ...who };
}

/** The engine as a {@link SessionFeed}. */
export function engineFeed(engine: Engine): SessionFeed {
  return {
    subscribe: (listener) => engine.bus.subscribe((event, payload) => listener(event, payload)),
    answerPermission: (sessionId, requestId, optionId, by) => void engine.sessions.answerPermission(sessionId, requestId, optionId, by),
    item: (sessionId, itemId) => engine.sessions.transcript(sessionId, { after: itemId - 1, limit: 1 }).items.find((i) => i.id === itemId) ?? null,
  };
}

/**
 * Prints one session's live updates while a CLI command hosts the runtime (or follows a remote one). With `--json` every
 * pushed event of the session is one JSON line (`{"event": name, ...payload}`); otherwise agent
 * text streams as it arrives and tool calls, plans, permissions, notices and stops get one line
 * each. Permission requests are answered by `policy` (`ask` reads a choice from stdin).
 */
export class SessionPrinter {
  private readonly printed = new Map<number, number>();
  private readonly toolStatus = new Map<number, string>();
  private readonly unsubscribe: () => void;
  private lastKind: string | null = null;
  /** Id of the message item whose text was printed last. */
  private lastText: number | null = null;
  private rl: readline.Interface | null = null;
  /** stdin ended: no one is left to answer a request (each later one is cancelled as `nobody`). */
  private inputEnded = false;
  /** Requests this printer took up or reported as elsewhere (`<requestId> <surface>`), so a re-push is not handled twice. */
  private readonly seenRequests = new Set<string>();

  private readonly feed: SessionFeed;
  /** The latest text items seen whole or rebuilt from appends (bounded), so appends can be printed. */
  private readonly texts = new Map<number, TranscriptItem>();
  /** Items being re-read after a missed append. */
  private readonly refetching = new Set<number>();

  constructor(
    source: Engine | SessionFeed,
    private readonly sessionId: () => string | null,
    private readonly json: boolean,
    private readonly policy: PermissionPolicy,
  ) {
    this.feed = 'bus' in source ? engineFeed(source) : source;
    this.unsubscribe = this.feed.subscribe((event, payload) => {
      const p = payload as { sessionId?: string; session?: Session; surfaceId?: string | null };
      const id = p.sessionId ?? p.session?.id;
      if (!id || id !== this.sessionId()) return;
      if (this.json) process.stdout.write(`${JSON.stringify({ event, ...p })}\n`);
      if (event === 'sessionEvent' && !this.json) {
        const { items, appends } = payload as { items: TranscriptItem[]; appends?: ItemAppend[] };
        // in transcript order: a message split at its size limit ends with an append and goes on in a new item
        const changes: Array<{ at: number; print: () => void }> = [
          ...items.map((item) => ({ at: item.id, print: () => this.human(item) })),
          ...(appends ?? []).map((append) => ({ at: append.itemId, print: () => this.append(id, append) })),
        ];
        for (const change of changes.sort((a, b) => a.at - b.at)) change.print();
      }
      if (event === 'permissionRequested') this.offer((payload as { permission: PermissionItem }).permission, p.surfaceId);
    });
  }

  /**
   * Takes up pending requests that were asked before this printer subscribed (e.g. listed by
   * `sessions.show` when a terminal picks a session up): those addressed to this surface or to any.
   */
  offerPending(permissions: PermissionItem[]): void {
    for (const permission of permissions) if (permission.state === 'pending') this.offer(permission, permission.surfaceId);
  }

  /**
   * Answers a request addressed to this surface or to any (`target` is the event's
   * `surfaceId`, else the item's); one addressed elsewhere gets a line naming where it waits. A
   * re-targeted request arrives again: it is answered once, and answered here when it moves here.
   */
  private offer(permission: PermissionItem, target: string | null | undefined): void {
    const to = target ?? permission.surfaceId ?? null;
    const mine = !this.feed.surfaceId || to === null || to === this.feed.surfaceId;
    if (this.seenRequests.has(`${permission.requestId} mine`)) return;
    const key = `${permission.requestId} ${mine ? 'mine' : to}`;
    if (this.seenRequests.has(key)) return;
    this.seenRequests.add(key);
    if (this.seenRequests.size > 1000) this.seenRequests.delete(this.seenRequests.values().next().value as string);
    if (mine) void this.answer(permission);
    else if (!this.json) this.line(`[permission] ${permission.title}: waiting for an answer on ${permission.surfaceLabel ?? 'another surface'}`);
  }

  /** Stops printing and releases stdin. */
  close(): void {
    this.unsubscribe();
    this.rl?.close();
    this.rl = null;
    if (!this.json && this.lastKind === 'text') process.stdout.write('\n');
  }

  /** Prints items already in the transcript (e.g. `session show`). */
  printItems(items: TranscriptItem[]): void {
    for (const item of items) this.human(item);
    if (this.lastKind === 'text') process.stdout.write('\n');
    this.lastKind = null;
  }

  private line(text: string): void {
    if (this.lastKind === 'text') process.stdout.write('\n');
    process.stdout.write(`${text}\n`);
    this.lastKind = 'line';
  }

  /**
   * Prints appended text: extends the item this printer has (when it has the text up to the
   * offset), else re-reads the item from the feed and prints it from what was printed so far.
   */
  private append(sessionId: string, a: ItemAppend): void {
    const known = this.texts.get(a.itemId);
    if (known && 'text' in known && typeof known.text === 'string' && a.offset <= known.text.length) {
      const have = known.text.length - a.offset;
      if (have < a.text.length) this.human({ ...known, text: known.text + a.text.slice(have), updatedAt: a.updatedAt } as TranscriptItem);
      return;
    }
    if (!this.feed.item || this.refetching.has(a.itemId)) return;
    this.refetching.add(a.itemId);
    const done = (item: TranscriptItem | null) => {
      this.refetching.delete(a.itemId);
      if (item && this.sessionId() === sessionId) this.human(item);
    };
    try {
      const got = this.feed.item(sessionId, a.itemId);
      if (got instanceof Promise) got.then(done, () => this.refetching.delete(a.itemId));
      else done(got);
    } catch {
      this.refetching.delete(a.itemId);
    }
  }

  private human(item: TranscriptItem): void {
    if (item.kind === 'agent_message' || item.kind === 'agent_thought' || item.kind === 'user_message') {
      this.texts.delete(item.id);
      this.texts.set(item.id, item);
      if (this.texts.size > 64) this.texts.delete(this.texts.keys().next().value as number);
    }
    switch (item.kind) {
      case 'agent_message':
      case 'agent_thought': {
        const done = this.printed.get(item.id) ?? 0;
        if (item.text.length <= done) return;
        const delta = item.text.slice(done);
        this.printed.set(item.id, item.text.length);
        if (item.kind === 'agent_thought') {
          this.line(`[thought] ${delta.trim()}`);
          return;
        }
        // a new message item (the agent spoke again after a tool call, answer or file request) starts on its own line
        if (this.lastKind === 'text' && this.lastText !== item.id && !delta.startsWith('\n')) process.stdout.write('\n');
        process.stdout.write(delta);
        this.lastKind = 'text';
        this.lastText = item.id;
        return;
      }
      case 'user_message':
        if (!this.printed.has(item.id) || this.toolStatus.get(item.id) !== item.status) {
          this.printed.set(item.id, 1);
          this.toolStatus.set(item.id, item.status);
          this.line(`> ${item.text}${item.status === 'queued' ? '  (queued)' : item.status === 'dropped' ? '  (dropped)' : ''}`);
        }
        return;
      case 'tool_call': {
        const key = `${item.status}:${item.title}`;
        if (this.toolStatus.get(item.id) === key) return;
        this.toolStatus.set(item.id, key);
        const where = item.locations.map((l) => l.path).join(', ');
        this.line(`[tool] ${item.title || item.toolCallId} (${item.toolKind}) ${item.status}${where ? `  ${where}` : ''}`);
        return;
      }
      case 'plan':
        this.line(`[plan]\n${item.entries.map((e) => `  [${e.status === 'completed' ? 'x' : e.status === 'in_progress' ? '~' : ' '}] ${e.content}`).join('\n')}`);
        return;
      case 'permission':
        if (item.state === 'pending' || this.printed.has(item.id)) return;
        this.printed.set(item.id, 1);
        this.line(`[permission] ${item.title}: ${item.state === 'selected' ? item.optionId : 'cancelled'} (${answeredByText(item, this.policy)})`);
        return;
      case 'notice':
        this.line(`[${item.severity}] ${item.title}${item.detail ? `\n${item.detail.trim().split('\n').slice(-10).join('\n')}` : ''}`);
        return;
      case 'stop':
        this.line(`[stop] ${item.stopReason}${item.error ? `: ${item.error}` : ''}`);
        return;
    }
  }

  private async answer(permission: PermissionItem): Promise<void> {
    const sessionId = this.sessionId();
    if (!sessionId) return;
    let optionId: string | null;
    let by: FeedAnswerer;
    if (this.policy === 'ask') {
      optionId = await this.ask(permission);
      by = optionId === null && this.inputEnded ? 'nobody' : 'user';
    } else {
      // printed once, from the answered transcript item (attributed to the policy there)
      optionId = pickOption(permission, this.policy);
      by = 'policy';
    }
    try {
      await this.feed.answerPermission(sessionId, permission.requestId, optionId, by);
    } catch {
      // already answered (turn cancelled meanwhile)
    }
  }

  private ask(permission: PermissionItem): Promise<string | null> {
    const where = permission.locations.map((l) => l.path).join(', ');
    const diffs = permission.content.filter((c) => c.type === 'diff').map((c) => (c.type === 'diff' ? `  ${c.path}: ${c.newText.split('\n').length} line(s)` : ''));
    const menu = permission.options.map((o, i) => `  ${i + 1}) ${o.name} [${o.kind}]`).join('\n');
    process.stderr.write(`\nThe agent asks: ${permission.title} (${permission.toolKind})${where ? `\n  ${where}` : ''}${diffs.length ? `\n${diffs.join('\n')}` : ''}\n${menu}\nChoose 1-${permission.options.length} (empty = cancel): `);
    // input ended before (a closed interface never emits 'close' again): no one can answer
    if (this.inputEnded) return Promise.resolve(null);
    if (!this.rl) {
      this.rl = readline.createInterface({ input: process.stdin, terminal: false });
      this.rl.once('close', () => {
        this.inputEnded = true;
      });
    }
    const rl = this.rl;
    return new Promise((resolve) => {
      const onClose = () => resolve(null);
      rl.once('close', onClose);
      rl.once('line', (line) => {
        rl.off('close', onClose);
        const text = line.trim();
        const byIndex = permission.options[Number(text) - 1];
        const byId = permission.options.find((o) => o.optionId === text);
        resolve((byIndex ?? byId)?.optionId ?? null);
      });
    });
  }
}
