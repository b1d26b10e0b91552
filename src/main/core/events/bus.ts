import type { EventName, PayloadOf } from '../../../shared/contract';

/** A listener receives every event with its name; transports forward them to their clients. */
export type EventListener = <E extends EventName>(event: E, payload: PayloadOf<E>) => void;

/**
 * The engine's event fan-out: capabilities emit contract events, every connected surface
 * (Electron windows, browser tabs, CLI watchers) subscribes. A throwing listener never stops the
 * others or the emitter.
 */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(event, payload);
      } catch (error) {
        console.error(`[atrium] event listener failed for ${event}:`, error);
      }
    }
  }
}
