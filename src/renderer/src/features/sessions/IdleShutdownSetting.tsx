import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { toast } from 'sonner';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';

const CHOICES = [5, 10, 30, 60, 0];

/**
 * The idle-shutdown setting: an agent process idle this long is stopped;
 * its session stays open and the next prompt starts the agent again and resumes transparently.
 * Applies to agents that become idle after the change. A value set elsewhere (CLI
 * `atrium session settings --idle-minutes N`) that is not one of the choices is shown as is.
 */
export function IdleShutdownSetting() {
  const client = useApp((s) => s.client);
  const live = useLive('sessions.settings', {});
  const [saving, setSaving] = useState(false);
  const current = live.data?.idleMinutes;
  if (current === undefined) return null;
  const choices = CHOICES.includes(current) ? CHOICES : [...CHOICES.slice(0, -1), current, 0].sort((a, b) => (a === 0 ? 1 : b === 0 ? -1 : a - b));
  const change = async (minutes: number) => {
    if (!client) return;
    setSaving(true);
    try {
      await client.request('sessions.setSettings', { idleMinutes: minutes });
      toast(minutes === 0 ? 'Idle agents keep running' : `Idle agents stop after ${minutes} min; their sessions resume on the next prompt`);
      live.reload();
    } catch (e) {
      errorToast(`Could not change the setting: ${(e as Error).message}`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <label className="sess-idle-setting" title="An idle agent process is stopped to save memory; the session stays open and the next prompt resumes it.">
      <span>Stop idle agents</span>
      <select value={current} disabled={saving} onChange={(e) => void change(Number(e.target.value))}>
        {choices.map((m) => (
          <option key={m} value={m}>
            {m === 0 ? 'never' : `after ${m} min`}
          </option>
        ))}
      </select>
    </label>
  );
}
