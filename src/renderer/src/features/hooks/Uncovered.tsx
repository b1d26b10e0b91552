import { ShieldAlert, ShieldX } from 'lucide-react';
import type { HookDanger, HookUncovered } from '../../../../shared/contract';

/**
 * "Not covered by the digest:" with a danger mark and each entry: the part of the command
 * literally and why the digest cannot cover it. Nothing when the list is empty.
 */
export function UncoveredList({ uncovered }: { uncovered: readonly HookUncovered[] }) {
  if (uncovered.length === 0) return null;
  return (
    <div className="hook-uncovered" role="group" aria-label="Not covered by the digest">
      <p className="hook-uncovered-title">
        <ShieldX size={14} aria-hidden /> Not covered by the digest:
      </p>
      <ul>
        {uncovered.map((u, i) => (
          <li key={`${u.code}:${i}`} data-uncovered={u.code}>
            <code>{u.text}</code> <span>{u.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The danger highlights worth listing next to {@link UncoveredList}: the engine also reports each
 * uncovered part as an `uncovered` highlight (the CLI prints it that way), which the red box
 * already shows, so listing it again would say everything twice.
 */
export function visibleDanger(danger: readonly HookDanger[]): HookDanger[] {
  return danger.filter((d) => d.code !== 'uncovered');
}

/** The danger highlights of a hook or server, each with its mark (nothing when none); uncovered parts are left to {@link UncoveredList}. */
export function DangerList({ danger }: { danger: readonly HookDanger[] }) {
  const shown = visibleDanger(danger);
  if (shown.length === 0) return null;
  return (
    <ul className="hook-dangers" aria-label="Danger highlights">
      {shown.map((d, i) => (
        <li key={`${d.code}:${i}`} data-danger={d.code}>
          <ShieldAlert size={13} aria-hidden /> {d.message}
        </li>
      ))}
    </ul>
  );
}
