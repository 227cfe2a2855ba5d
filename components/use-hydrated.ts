import { useSyncExternalStore } from "react";

/**
 * False on the server and while hydrating, true once React runs in the
 * browser. A form whose submit needs React (it sends JSON to /v1) keeps its
 * button disabled until then: clicked earlier, the browser would submit the
 * form itself, as a GET that puts every field in the address and loses them.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
const noSubscription = () => () => {};
