import { AlertDialog } from 'radix-ui';
import type { Hook, McpServer } from '../../../../shared/contract';
import { literalOf, sourceLabel } from './HookCard';
import { serverLiteral } from './McpCard';
import { ConfirmActions } from '../../components/DialogActions';

/** An item the "approve all shown" confirmation lists. */
export type Approvable = { kind: 'hook'; item: Hook } | { kind: 'mcp'; item: McpServer };

/**
 * Confirmation for approving several hooks/servers at once: lists every one literally (event,
 * matcher, command, source) so nothing is approved unseen. Approves at the digests listed.
 */
export function ApproveAllDialog({ items, open, onOpenChange, onConfirm, title }: { items: Approvable[]; open: boolean; onOpenChange(open: boolean): void; onConfirm(): void; title: string }) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-wide">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            Each runs exactly as listed whenever its event fires. If any of them changes afterwards, it stops running until you approve it again.
          </AlertDialog.Description>
          <ul className="approve-all-list" aria-label="To approve">
            {items.map(({ kind, item }) => (
              <li key={item.id}>
                <span className="approve-all-what">
                  {kind === 'hook' ? (
                    <>
                      <strong>{item.event}</strong>
                      {item.matcher && <span className="hook-matcher">{item.matcher}</span>}
                    </>
                  ) : (
                    <strong>MCP {item.name}</strong>
                  )}
                  <span className="hook-source">{sourceLabel(item)}</span>
                  {item.danger.length > 0 && <span className="badge badge-error">{item.danger.length} danger highlight{item.danger.length === 1 ? '' : 's'}</span>}
                </span>
                <pre className="hook-command">{kind === 'hook' ? literalOf(item) : serverLiteral(item)}</pre>
              </li>
            ))}
          </ul>
          <ConfirmActions label={`Approve ${items.length}`} onConfirm={onConfirm} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
