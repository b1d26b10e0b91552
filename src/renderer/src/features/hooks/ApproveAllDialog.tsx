import { useRef, useState, type KeyboardEvent } from 'react';
import { AlertDialog } from 'radix-ui';
import { ShieldX } from 'lucide-react';
import type { Hook, McpServer } from '../../../../shared/contract';
import { literalOf, sourceLabel } from './HookCard';
import { serverLiteral } from './McpCard';
import { HookDiff } from './HookDiff';
import { DangerList, UncoveredList, visibleDanger } from './Uncovered';
import { ConfirmActions } from '../../components/DialogActions';

/** An item the approval dialogs list. */
export type Approvable = { kind: 'hook'; item: Hook } | { kind: 'mcp'; item: McpServer };

/** One item to approve, and whether the user acknowledged what its digest does not cover. */
export interface ApprovalChoice {
  approvable: Approvable;
  acknowledgeUncovered: boolean;
}

/** How an item is named in the dialogs: `Stop hook: npx -y cowsay` / `MCP server tools`. */
export function approvableLabel({ kind, item }: Approvable): string {
  return kind === 'hook' ? `${item.event}${item.matcher ? ` [${item.matcher}]` : ''} hook: ${literalOf(item)}` : `MCP server ${item.name}`;
}

/** True when the digest does not cover everything the item runs: approving it needs an explicit acknowledgement. */
export function isUncovered(a: Approvable): boolean {
  return a.item.uncovered.length > 0;
}

/** True when the item has danger highlights of its own (besides what the digest does not cover, which {@link isUncovered} handles). */
export function isFlagged(a: Approvable): boolean {
  return visibleDanger(a.item.danger).length > 0;
}

/**
 * Confirmation for approving several hooks/servers at once ("Approve all shown", "Approve my user
 * hooks"): lists every item literally with its danger highlights, a modified one marked with the
 * diff against what was approved, each with a checkbox to leave it out. Items whose digest does
 * not cover everything they run are listed apart and left out unless acknowledged one by one;
 * items with danger highlights start unticked, so including them is a deliberate choice.
 * `title(chosen, total)` names what is approved ("Approve 8 of 12 shown items?"): it follows the
 * ticks, and a line under it says why the others are left out, so no count shown disagrees.
 * `onConfirm` receives the chosen items (approved at the digests listed). Enter on a checkbox
 * confirms, Escape cancels.
 */
export function ApproveAllDialog({ items, open, onOpenChange, onConfirm, title, workspaceId }: { items: Approvable[]; open: boolean; onOpenChange(open: boolean): void; onConfirm(chosen: ApprovalChoice[]): void; title(chosen: number, total: number): string; workspaceId: string }) {
  const covered = items.filter((a) => !isUncovered(a));
  const uncovered = items.filter(isUncovered);
  // flagged items start unticked: the highlights are what needs reading before they are included
  const [leftOut, setLeftOut] = useState<ReadonlySet<string>>(() => new Set(covered.filter(isFlagged).map((a) => a.item.id)));
  const [acknowledged, setAcknowledged] = useState<ReadonlySet<string>>(new Set());
  const chosen: ApprovalChoice[] = [
    ...covered.filter((a) => !leftOut.has(a.item.id)).map((approvable) => ({ approvable, acknowledgeUncovered: false })),
    ...uncovered.filter((a) => acknowledged.has(a.item.id)).map((approvable) => ({ approvable, acknowledgeUncovered: true })),
  ];
  const toggle = (set: ReadonlySet<string>, id: string) => {
    const next = new Set(set);
    if (!next.delete(id)) next.add(id);
    return next;
  };
  const left = items.length - chosen.length;
  const reasons = leftOutReasons(covered, uncovered, leftOut, acknowledged);
  const content = useRef<HTMLDivElement>(null);
  // opened from a plain button (no radix Trigger): remember it, so closing gives focus back to it
  const returnTo = useRef<Element | null>(document.activeElement);
  const enterConfirms = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement && chosen.length > 0) {
      e.preventDefault();
      onConfirm(chosen);
    }
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          ref={content}
          className="dialog dialog-wide approve-all-dialog"
          onKeyDown={enterConfirms}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected) returnTo.current.focus();
          }}
          onOpenAutoFocus={(e) => {
            // start on the first checkbox: the list is what needs reading
            const first = content.current?.querySelector<HTMLInputElement>('input[type="checkbox"]');
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
        >
          <AlertDialog.Title className="dialog-title">{title(chosen.length, items.length)}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            Each runs exactly as listed whenever its event fires. Untick what you want to leave out. If any of them changes afterwards, it stops running until you approve it again.
          </AlertDialog.Description>
          {left > 0 && (
            <p className="dialog-text approve-all-left-out" data-testid="left-out-reasons">
              {left} left out: {reasons.join(', ')}.
            </p>
          )}
          <div className="approve-all-body">
            {covered.length > 0 && (
              <section aria-label="To approve">
                <h3 className="approve-all-heading">
                  To approve <span className="muted">{covered.length - covered.filter((a) => leftOut.has(a.item.id)).length} of {covered.length}</span>
                </h3>
                <ul className="approve-all-list">
                  {covered.map((a) => (
                    <ApproveAllRow key={a.item.id} approvable={a} workspaceId={workspaceId} included={!leftOut.has(a.item.id)} onToggle={() => setLeftOut((s) => toggle(s, a.item.id))} />
                  ))}
                </ul>
              </section>
            )}
            {uncovered.length > 0 && (
              <section aria-label="Not covered by the digest" className="approve-all-uncovered">
                <h3 className="approve-all-heading">
                  <ShieldX size={14} aria-hidden /> Not covered by the digest <span className="muted">{uncovered.length}</span>
                </h3>
                <p className="hint">
                  These run code Atrium cannot check: it can change without the item turning “modified”. They are left out unless you acknowledge each one.
                </p>
                <ul className="approve-all-list">
                  {uncovered.map((a) => (
                    <ApproveAllRow key={a.item.id} approvable={a} workspaceId={workspaceId} included={acknowledged.has(a.item.id)} onToggle={() => setAcknowledged((s) => toggle(s, a.item.id))} />
                  ))}
                </ul>
              </section>
            )}
          </div>
          <ConfirmActions label={`Approve ${chosen.length}`} disabled={chosen.length === 0} note={left > 0 ? `${left} left out` : undefined} onConfirm={() => onConfirm(chosen)} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/**
 * Why items are left out, each part counted: "2 not covered by the digest (tick the
 * acknowledgement to include)", "1 with danger highlights (tick to include)", "1 you unticked".
 */
function leftOutReasons(covered: Approvable[], uncovered: Approvable[], leftOut: ReadonlySet<string>, acknowledged: ReadonlySet<string>): string[] {
  const out = covered.filter((a) => leftOut.has(a.item.id));
  const flagged = out.filter(isFlagged).length;
  const unticked = out.length - flagged;
  const unacknowledged = uncovered.filter((a) => !acknowledged.has(a.item.id)).length;
  return [
    unacknowledged > 0 && `${unacknowledged} not covered by the digest (tick its acknowledgement to include)`,
    flagged > 0 && `${flagged} with danger highlights (tick to include)`,
    unticked > 0 && `${unticked} you unticked`,
  ].filter((r): r is string => Boolean(r));
}

/** One listed item: its checkbox, what it is, the literal command, highlights, what is not covered and, when modified, the diff. */
function ApproveAllRow({ approvable, workspaceId, included, onToggle }: { approvable: Approvable; workspaceId: string; included: boolean; onToggle(): void }) {
  const { kind, item } = approvable;
  const label = approvableLabel(approvable);
  const uncovered = isUncovered(approvable);
  return (
    <li className={`approve-all-item${uncovered ? ' uncovered' : ''}${isFlagged(approvable) ? ' flagged' : ''}${included ? '' : ' left-out'}`} aria-label={label} data-item-id={item.id} data-included={included}>
      <div className="approve-all-what">
        {!uncovered && <input type="checkbox" checked={included} onChange={onToggle} aria-label={`Approve ${label}`} />}
        {kind === 'hook' ? (
          <>
            <strong>{item.event}</strong>
            {item.matcher && <span className="hook-matcher">{item.matcher}</span>}
          </>
        ) : (
          <strong>MCP {item.name}</strong>
        )}
        {item.state === 'modified' && <span className="badge hook-state hook-state-modified">modified</span>}
        <span className="hook-source">{sourceLabel(item)}</span>
      </div>
      <pre className="hook-command">{kind === 'hook' ? literalOf(item) : serverLiteral(item)}</pre>
      <DangerList danger={item.danger} />
      <UncoveredList uncovered={item.uncovered} />
      {item.state === 'modified' && <HookDiff key={item.digest} workspaceId={workspaceId} id={item.id} />}
      {uncovered && (
        <label className="approve-ack">
          <input type="checkbox" checked={included} onChange={onToggle} /> I understand Atrium cannot check this code: approve it too
        </label>
      )}
    </li>
  );
}
