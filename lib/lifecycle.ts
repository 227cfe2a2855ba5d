// The process's life as the HTTP server (scripts/server.ts) and the app's
// modules share it. They load as separate module instances (the server
// through tsx, the route handlers inside Next's bundle), so the state lives
// on globalThis under a registered symbol that both see.

interface Lifecycle {
  /** Set when shutdown begins: /readyz answers 503 from then on. */
  draining: boolean;
  /** Resources to release once the last request has finished: lower `order` first, so work in flight drains before its pools close. */
  closers: Map<string, { order: number; close: () => Promise<unknown> }>;
}

const KEY = Symbol.for("petstore.lifecycle");
const holder = globalThis as unknown as { [KEY]?: Lifecycle };

function state(): Lifecycle {
  holder[KEY] ??= { draining: false, closers: new Map() };
  return holder[KEY];
}

export function isDraining(): boolean {
  return state().draining;
}

export function startDraining(): void {
  state().draining = true;
}

/** Registers (or replaces, by name) something to close at shutdown: background work (order 0), then pools and connections (order 10). */
export function onShutdown(name: string, close: () => Promise<unknown>, order = 10): void {
  state().closers.set(name, { order, close });
}

/** Closes everything registered; one failure or hang does not stop the rest (each waits at most `timeoutMs`). */
export async function closeResources(timeoutMs: number, log: (line: string) => void = () => {}): Promise<void> {
  const closers = [...state().closers].sort(([, a], [, b]) => a.order - b.order);
  for (const [name, { close }] of closers) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      const outcome = await Promise.race([close().then(() => "closed" as const), timeout]);
      if (outcome === "timeout") log(`${name}: did not close within ${timeoutMs} ms`);
    } catch (error) {
      log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      state().closers.delete(name);
    }
  }
}
