/**
 * Sets `key` in a per-process cache that holds at most `max` entries: when
 * full, the oldest insertion goes first (a Map iterates in insertion order).
 * Enough for caches whose working set is far smaller than `max`, where the
 * bound only guards memory against a flood of distinct keys.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
