import { describe, expect, it } from 'vitest';
import type { ItemAppend, TranscriptItem } from '../../../src/shared/contract';
import { applySessionEvent, upsertItems } from '../../../src/renderer/src/features/sessions/transcriptItems';

const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;

function message(id: number, text: string, updated = 1): TranscriptItem {
  return { id, kind: 'agent_message', turn: 1, createdAt: at(0), updatedAt: at(updated), text, blocks: [], messageId: null, continued: false };
}

function stop(id: number): TranscriptItem {
  return { id, kind: 'stop', turn: 1, createdAt: at(0), updatedAt: at(0), stopReason: 'end_turn', error: null };
}

const append = (itemId: number, offset: number, text: string, updated = 2): ItemAppend => ({ itemId, offset, text, updatedAt: at(updated) });

describe('applySessionEvent (the session view reducer)', () => {
  it('appends text at the item length and takes the new updatedAt; whole items are upserted', () => {
    const items = [message(1, 'Hello')];
    const { items: next, refetch } = applySessionEvent(items, { items: [stop(2)], appends: [append(1, 5, ', world')] }, null);
    expect(refetch).toEqual([]);
    expect(next).toEqual([{ ...message(1, 'Hello, world'), updatedAt: at(2) }, stop(2)]);
    // the input is not mutated (React state)
    expect(items).toEqual([message(1, 'Hello')]);
  });

  it('rebuilds a streamed message from many appends exactly as the whole item would read', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    let items: TranscriptItem[] = [message(7, text.slice(0, 10))];
    for (let offset = 10; offset < text.length; offset += 13) {
      const r = applySessionEvent(items, { items: [], appends: [append(7, offset, text.slice(offset, offset + 13))] }, null);
      expect(r.refetch).toEqual([]);
      items = r.items;
    }
    expect(items).toEqual([{ ...message(7, text), updatedAt: at(2) }]);
  });

  it('a gap (offset beyond the loaded text, or an item not loaded) asks for a refetch and shows no guessed text', () => {
    const items = [message(1, 'Hello')];
    const beyond = applySessionEvent(items, { items: [], appends: [append(1, 9, 'lost?')] }, null);
    expect(beyond.refetch).toEqual([1]);
    expect(beyond.items).toEqual(items);
    const unknown = applySessionEvent(items, { items: [], appends: [append(4, 0, 'x'), append(4, 1, 'y')] }, null);
    expect(unknown.refetch).toEqual([4]);
    expect(unknown.items).toEqual(items);
    // the refetched item (read whole) then takes later appends normally
    const fetched = upsertItems(unknown.items, [message(4, 'xy')]);
    expect(applySessionEvent(fetched, { items: [], appends: [append(4, 2, 'z')] }, null).items[1]).toMatchObject({ id: 4, text: 'xyz' });
  });

  it('an append the loaded text already covers (snapshot newer than the event) adds only what is missing', () => {
    const items = [message(1, 'Hello, wor')];
    expect(applySessionEvent(items, { items: [], appends: [append(1, 5, ', w')] }, null).items).toEqual(items);
    expect(applySessionEvent(items, { items: [], appends: [append(1, 5, ', world')] }, null).items[0]).toMatchObject({ text: 'Hello, world' });
  });

  it('ignores items and appends below the loaded page', () => {
    const items = [message(10, 'newest page')];
    const r = applySessionEvent(items, { items: [message(3, 'old')], appends: [append(4, 100, 'old text')] }, 10);
    expect(r).toEqual({ items, refetch: [] });
  });
});
