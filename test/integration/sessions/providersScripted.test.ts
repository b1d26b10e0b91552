import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../../src/main/core/credentials/backend';
import { policyWorlds, promptAndWait } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * Provider settings with the scripted ACP agent (a real child process over stdio): the workspace's
 * model is selected through the agent's `model` configuration option and its mode through
 * `session/set_mode`; the key the agent gets is redacted from the stderr Atrium records.
 */
const KEY = 'sk-scripted-provider-key-424242';
const worlds = policyWorlds();

const scenario = {
  modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'plan', name: 'Plan' }] },
  configOptions: [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small' }, { value: 'large-2', name: 'Large 2' }] },
  ],
  turns: [
    { match: 'hello', steps: [{ text: 'Hi.' }, { stop: 'end_turn' }] },
    { match: 'crash', steps: [{ crash: { exitCode: 3, stderr: `request failed with key ${KEY}` } }] },
  ],
};

describe('provider settings with a real ACP agent process', () => {
  it("selects the workspace's model and mode where the agent offers them, and redacts the key from recorded stderr", async () => {
    const world = worlds.create(scenario);
    const engine = world.open({ credentials: { backend: new MemoryBackend() } });
    const ws = engine.workspaces.add(world.ws).workspace;
    engine.providers.save({ id: 'p', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' });
    engine.providers.setKey('p', KEY);
    engine.providers.setAgentSettings(ws.id, 'scripted', { providerId: 'p', model: 'large-2', modeId: 'plan' });

    const s = engine.sessions.create({ workspaceId: ws.id, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const shown = engine.sessions.show(s.id);
    expect(shown.configOptions.find((o) => o.id === 'model')?.currentValue).toBe('large-2');
    expect(shown.modes?.currentModeId).toBe('plan');
    expect(engine.providers.sessionEndpoint(s.id)).toMatchObject({ providerId: 'p', kind: 'openai-compatible', endpoint: 'http://127.0.0.1:9/v1', model: 'large-2', modeId: 'plan', source: 'provider' });

    // a model the agent does not list is left to the environment, with no error
    engine.providers.setAgentSettings(ws.id, 'scripted', { providerId: 'p', model: 'unlisted-model' });
    const s2 = engine.sessions.create({ workspaceId: ws.id, agentId: 'scripted' });
    expect(await promptAndWait(engine, s2.id, 'hello')).toBe('end_turn');
    expect(engine.sessions.show(s2.id).configOptions.find((o) => o.id === 'model')?.currentValue).toBe('small');

    // the agent prints its key and dies: the recorded stderr never holds it
    engine.sessions.prompt(s.id, 'crash');
    await waitFor(() => engine.sessions.show(s.id).state === 'failed', 'the session to fail after the crash', 30_000);
    const events = JSON.stringify(engine.store.db.prepare('SELECT data FROM session_events WHERE session_id = ?').all(s.id));
    expect(events).toContain('request failed with key [redacted key]');
    expect(events).not.toContain(KEY);
    expect(engine.sessions.show(s.id).diagnostics.stderrTail).not.toContain(KEY);
  }, 120_000);
});
