// A minimal Server-Sent Events reader for tests (fetch streaming, no dependencies).
export type SseEvent = { event: string; data: string; id?: string; comment?: string }

export class SseClient {
  private buffer = ''
  readonly events: SseEvent[] = []
  readonly comments: string[] = []
  private waiters: (() => void)[] = []
  private readonly controller = new AbortController()
  status = 0
  /** Set when the server ended the stream. */
  ended = false

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = new SseClient()
    const res = await fetch(url, { headers, signal: c.controller.signal })
    c.status = res.status
    if (!res.ok || !res.body) {
      c.buffer = await res.text()
      return c
    }
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          c.feed(decoder.decode(value, { stream: true }))
        }
        c.ended = true
        for (const w of c.waiters.splice(0)) w()
      } catch {
        // aborted
      }
    })()
    return c
  }

  get errorBody() {
    return this.buffer
  }

  private feed(text: string) {
    this.buffer += text
    let i: number
    while ((i = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, i)
      this.buffer = this.buffer.slice(i + 2)
      const e: SseEvent = { event: 'message', data: '' }
      let hasData = false
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim())
        else if (line.startsWith('event: ')) e.event = line.slice(7)
        else if (line.startsWith('data: ')) {
          e.data += line.slice(6)
          hasData = true
        } else if (line.startsWith('id: ')) e.id = line.slice(4)
      }
      if (hasData) this.events.push(e)
    }
    for (const w of this.waiters.splice(0)) w()
  }

  /** Waits until `predicate` holds for the events so far (or throws after `ms`). */
  async until(predicate: (events: SseEvent[]) => boolean, ms = 10_000, what = 'events') {
    const deadline = Date.now() + ms
    while (!predicate(this.events)) {
      const left = deadline - Date.now()
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events)}`)
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  of<T = Record<string, unknown>>(name: string): T[] {
    return this.events.filter((e) => e.event === name).map((e) => JSON.parse(e.data) as T)
  }

  close() {
    this.controller.abort()
  }
}
