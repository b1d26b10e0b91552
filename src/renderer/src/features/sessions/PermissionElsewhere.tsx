import { ShieldQuestion } from 'lucide-react';
import type { PermissionItem } from '../../../../shared/contract';
import './surfaces.css';

/**
 * A pending permission request addressed to another attached surface (it goes to the
 * surface that sent the prompt): one line naming that surface instead of the answer buttons, so
 * the request is not answered twice from two places. "Answer here instead" takes it over on this
 * surface: the request is re-addressed here, so the surface asked before shows this notice instead
 * of its buttons (every surface holds the same token, so this is about who is looking, not about
 * authority, and the asked surface may be a terminal or a tab nobody is watching). `label` names the
 * asked surface (its attached label, else the one recorded with the request).
 */
export function PermissionElsewhere({ item, surfaceId, label, onTakeOver }: { item: PermissionItem; surfaceId: string; label: string; onTakeOver(): void }) {
  const where = label;
  return (
    <div className="sess-permission-elsewhere" role="status" aria-label={`Permission request elsewhere: ${item.title}`} data-request-id={item.requestId} data-surface-id={surfaceId}>
      <ShieldQuestion size={14} aria-hidden />
      <span className="sess-permission-elsewhere-text">
        <strong>{item.title}</strong>: Waiting for an answer on <span className="sess-permission-elsewhere-surface">{where}</span>
      </span>
      <button type="button" className="link-button" onClick={onTakeOver} title={`Move the answer buttons here; ${where} then shows this notice instead`}>
        Answer here instead
      </button>
    </div>
  );
}
