import type { SessionUsage } from '../../../../shared/contract';
import { compactNumber } from './format';

/** Context-window usage: tokens used of the window, as a thin bar and numbers (plus cost when reported). */
export function UsageMeter({ usage }: { usage: SessionUsage | null }) {
  if (!usage || usage.size <= 0) return null;
  const pct = Math.min(100, Math.round((usage.used / usage.size) * 100));
  const cost = usage.cost ? ` · ${new Intl.NumberFormat(undefined, { style: 'currency', currency: usage.cost.currency }).format(usage.cost.amount)}` : '';
  return (
    <span className="sess-usage" title={`${usage.used.toLocaleString()} of ${usage.size.toLocaleString()} context tokens used${cost}`} data-testid="session-usage">
      <span className="sess-usage-bar" aria-hidden>
        <span className={`sess-usage-fill${pct >= 85 ? ' high' : ''}`} style={{ width: `${pct}%` }} />
      </span>
      {compactNumber(usage.used)}/{compactNumber(usage.size)} tokens{cost}
    </span>
  );
}
