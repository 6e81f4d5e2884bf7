/**
 * Counts failed attempts per key (an e-mail, an address) in a sliding window. After `max`
 * failures the key is blocked until the oldest failure leaves the window. In memory: the
 * embedded provider runs in one process.
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs
    const list = (this.failures.get(key) ?? []).filter((t) => t > since)
    if (list.length) this.failures.set(key, list)
    else this.failures.delete(key)
    return list
  }

  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const list = this.recent(key)
    if (list.length < this.max) return 0
    const oldest = list[list.length - this.max] ?? this.now()
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000))
  }

  fail(key: string) {
    const list = this.recent(key)
    list.push(this.now())
    this.failures.set(key, list)
  }

  clear(key: string) {
    this.failures.delete(key)
  }
}
