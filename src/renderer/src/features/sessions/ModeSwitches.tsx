import type { SessionConfigOption, SessionDetails } from '../../../../shared/contract';
import { hostedReason } from './HostedElsewhere';

/**
 * The agent's mode and configuration options as compact selects (shown only when the agent
 * advertises them). Changes go through `sessions.setMode` / `sessions.setConfigOption`; disabled
 * (with the reason as tooltip) while another Atrium process runs the session.
 */
export function ModeSwitches({ session, onMode, onConfig }: { session: SessionDetails; onMode(modeId: string): void; onConfig(id: string, value: string | boolean): void }) {
  const modes = session.modes;
  // a config option of category "mode" mirrors the modes; show it once
  const options = session.configOptions.filter((o) => !(modes && modes.available.length && o.category === 'mode'));
  if (!modes?.available.length && !options.length) return null;
  const blocked = hostedReason(session);
  return (
    <fieldset className="sess-switches" disabled={blocked !== null} title={blocked ?? undefined}>
      {modes && modes.available.length > 0 && (
        <label className="sess-switch" title={modes.available.find((m) => m.id === modes.currentModeId)?.description ?? 'Agent mode'}>
          <span className="muted">Mode</span>
          <select value={modes.currentModeId} onChange={(e) => onMode(e.target.value)} aria-label="Mode">
            {!modes.available.some((m) => m.id === modes.currentModeId) && <option value={modes.currentModeId}>{modes.currentModeId}</option>}
            {modes.available.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {options.map((o) => (
        <ConfigSwitch key={o.id} option={o} onChange={(v) => onConfig(o.id, v)} />
      ))}
    </fieldset>
  );
}

function ConfigSwitch({ option, onChange }: { option: SessionConfigOption; onChange(value: string | boolean): void }) {
  if (option.type === 'boolean') {
    return (
      <label className="sess-switch" title={option.description ?? option.name}>
        <input type="checkbox" checked={option.currentValue === true} onChange={(e) => onChange(e.target.checked)} />
        <span>{option.name}</span>
      </label>
    );
  }
  const groups = [...new Set(option.options.map((o) => o.group))];
  const render = (list: SessionConfigOption['options']) =>
    list.map((o) => (
      <option key={o.value} value={o.value} title={o.description ?? undefined}>
        {o.name}
      </option>
    ));
  return (
    <label className="sess-switch" title={option.description ?? option.name}>
      <span className="muted">{option.name}</span>
      <select value={String(option.currentValue)} onChange={(e) => onChange(e.target.value)} aria-label={option.name}>
        {groups.length > 1
          ? groups.map((g) => (
              <optgroup key={g ?? ''} label={g ?? 'Other'}>
                {render(option.options.filter((o) => o.group === g))}
              </optgroup>
            ))
          : render(option.options)}
      </select>
    </label>
  );
}
