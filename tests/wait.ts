import { vi } from "vitest";

// One way for a test to wait for something that happens in the background (a
// job, a replica, a mail, a log line): ask again until it is there, and say
// what never came. vi.waitFor re-asks every `interval` ms and gives up after
// `timeoutMs`, failing with the last "still waiting for …".

/** The first truthy answer of `probe`, asked again every 100 ms; fails naming `what` after `timeoutMs`. */
export function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (!value) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}
