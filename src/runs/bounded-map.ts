// A map with a size cap (least recently used evicted first) and an idle expiry: the only kind of
// map footprint-otel keys by trace or conversation. Time comes from an injected clock.

export interface BoundedMapOptions<V> {
  maxEntries: number;
  idleMs: number;
  now: () => number;
  /** Called for every entry evicted by the cap or the expiry (not for delete()). */
  onEvict?: (key: string, value: V, why: 'cap' | 'idle') => void;
}

export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; touched: number }>();
  /**
   * The key inserted last (the most recently used), or undefined when unknown. A hit on it needs
   * no re-insertion: the core reads and writes the same trace's entries many times in a row.
   */
  private newest: string | undefined;
  constructor(private readonly opts: BoundedMapOptions<V>) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = this.opts.now();
    if (now - e.touched > this.opts.idleMs) {
      this.delete(key);
      this.opts.onEvict?.(key, e.value, 'idle');
      return undefined;
    }
    // Re-insert to mark as most recently used (unless it already is).
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, e);
      this.newest = key;
    }
    e.touched = now;
    return e.value;
  }

  /** Reads without touching recency or expiry. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    const now = this.opts.now();
    const e = this.entries.get(key);
    if (e === undefined) this.entries.set(key, { value, touched: now });
    else {
      e.value = value;
      e.touched = now;
      if (key !== this.newest) {
        this.entries.delete(key);
        this.entries.set(key, e);
      }
    }
    this.newest = key;
    this.sweep(now);
  }

  delete(key: string): boolean {
    if (key === this.newest) this.newest = undefined;
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.newest = undefined;
  }

  /** Key/value pairs, oldest first, without touching recency or expiry. */
  pairs(): [string, V][] {
    return Array.from(this.entries, ([k, e]) => [k, e.value] as [string, V]);
  }

  values(): IterableIterator<V> {
    return Array.from(this.entries.values(), (e) => e.value)[Symbol.iterator]();
  }

  /** Evicts the least recently used entry (for a caller's own byte bound). False when empty. */
  evictOldest(): boolean {
    for (const [key, e] of this.entries) {
      this.delete(key);
      this.opts.onEvict?.(key, e.value, 'cap');
      return true;
    }
    return false;
  }

  private sweep(now: number): void {
    // Oldest first: expired entries, then whatever the cap requires.
    for (const [key, e] of this.entries) {
      if (this.entries.size > this.opts.maxEntries) {
        this.delete(key);
        this.opts.onEvict?.(key, e.value, 'cap');
        continue;
      }
      if (now - e.touched > this.opts.idleMs) {
        this.delete(key);
        this.opts.onEvict?.(key, e.value, 'idle');
        continue;
      }
      break;
    }
  }
}
