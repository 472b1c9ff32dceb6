/**
 * A per-process cache whose entries live a few seconds (ARCHITECTURE section 9), for what every request
 * reads and rarely changes. `clear()` drops everything at once, and it also voids every read that was
 * under way when it was called: a value loaded from before a change is never stored after the change
 * was announced, however the two interleave.
 *
 * Concurrent misses of one key share one load, so a burst of callers after an entry expires costs one
 * query, not one each.
 */
export class ShortCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private readonly loading = new Map<K, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The live entry, if any. */
  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > Date.now()) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The live entry, or what `load` answers (stored unless `keep` says no, e.g. for a miss that
   * must not take room). A load that fails is not stored and is tried again by the next caller.
   */
  async through(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const started = this.generation;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        // Cleared meanwhile: the value may predate the change, so it serves this caller only.
        if (this.generation === started && keep(value)) this.set(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Drops every entry and voids every load under way. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}

const handleKeys = new WeakMap<object, number>();
let nextHandleKey = 1;

/**
 * A number standing for a database handle, for cache keys: two databases in one process (the tests
 * open several) never share an entry.
 */
export function handleKey(db: object): number {
  let key = handleKeys.get(db);
  if (!key) {
    key = nextHandleKey++;
    handleKeys.set(db, key);
  }
  return key;
}

const keyOfSet = new WeakMap<ReadonlySet<string>, number>();
const keyOfContent = new Map<string, number>();
let nextContentKey = 1;

/**
 * A small number standing for a set of strings by its content (a user's grants), for cache keys:
 * two sets holding the same strings share it. Worked out once per set object, which the grants cache
 * hands out for seconds at a time.
 */
export function contentKey(set: ReadonlySet<string>): number {
  let key = keyOfSet.get(set);
  if (key === undefined) {
    const content = [...set].sort().join('\n');
    key = keyOfContent.get(content);
    if (key === undefined) {
      // Numbers are never handed out twice, so forgetting contents (to stay bounded) cannot make two
      // different sets share one.
      if (keyOfContent.size >= 10_000) keyOfContent.clear();
      key = nextContentKey++;
      keyOfContent.set(content, key);
    }
    keyOfSet.set(set, key);
  }
  return key;
}
