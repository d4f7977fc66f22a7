/**
 * A tiny typed event emitter: no Node APIs, so it runs in React Native and browsers. `Events` is
 * an interface of its event names, closed: `on('chnage', …)` fails to compile.
 */
export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  private readonly listeners: { [K in keyof Events]?: Set<(payload: Events[K]) => void> } = {};

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    const set = (this.listeners[event] ??= new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  once<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of [...(this.listeners[event] ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        // A listener's bug must not break the SDK's own bookkeeping.
        console.error(`cockroach-poker sdk: "${String(event)}" listener threw`, error);
      }
    }
  }
}
