import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateState } from '../../../src/shared/contract';

// the module graph reads the window's address at import (the app store's initial route)
vi.stubGlobal('location', { hash: '' });
const { UpdateNotice } = await import('../../../src/renderer/src/features/updates/UpdateStatus');

const html = (state: UpdateState, restartError: string | null = null) => renderToStaticMarkup(createElement(UpdateNotice, { state, onRestart: () => {}, restartError }));

describe('desktop update line', () => {
  it('shows nothing while there is nothing to do', () => {
    expect(html({ state: 'idle' })).toBe('');
    expect(html({ state: 'checking' })).toBe('');
    expect(html({ state: 'disabled', reason: 'Development build: updates are off.' })).toBe('');
  });

  it('shows a quiet download line with its progress', () => {
    const out = html({ state: 'downloading', version: '0.2.0', percent: 42 });
    expect(out).toContain('Downloading Atrium 0.2.0… 42%');
    expect(out).toContain('<progress class="update-progress" max="100" value="42" aria-label="Update download">');
    expect(out).not.toContain('<button');
  });

  it('says "Update ready" with a Restart button once downloaded, and shows a failed restart', () => {
    const out = html({ state: 'ready', version: '0.2.0' });
    expect(out).toMatch(/role="status" aria-label="Update">.*Update ready <span class="muted">— Atrium 0.2.0<\/span>/);
    expect(out).toMatch(/<button class="button primary update-restart"[^>]*>Restart<\/button>/);
    expect(html({ state: 'ready', version: '0.2.0' }, 'Could not restart: boom')).toContain('<p class="field-error" role="alert">Could not restart: boom</p>');
  });

  it('keeps an error to one collapsed line; the message and what to do are behind it', () => {
    const out = html({ state: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' });
    expect(out).toContain('aria-expanded="false"');
    expect(out).toContain('Update failed');
    expect(out).not.toContain('ERR_NAME_NOT_RESOLVED');
    expect(out).not.toContain('role="alert"');
  });
});
