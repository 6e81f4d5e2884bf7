import type { Database } from '@veloptima/db'
import { LIVE_CHANNEL } from './channel.ts'
import {
  databaseNow,
  jobsChangedSince,
  liveStart,
  membersOfTeams,
  notificationsAfter,
  profilesChangedSince,
  teamsChangedAfter,
} from './repository.ts'

export { LIVE_CHANNEL }

/**
 * What a wake-up may be about: `team-items` when a team's items changed (the stream then also
 * re-reads its teams' lists, a query it skips for every other wake-up).
 */
export type WakeReason = 'team-items'
type Wake = (reason?: WakeReason) => void

/**
 * Fans database changes out to the live streams of this process. Changes arrive by
 * LISTEN/NOTIFY (triggers in migration 0002 raise them whoever writes); a slow poll backs it up
 * for writers whose NOTIFY this process cannot hear (PGlite serves other connections through a
 * socket, whose notifications stay on that connection). Each stream then reads what is new for
 * its caller, so a wake-up carries no data and a spurious one costs only a query.
 */
export class LiveHub {
  private readonly byUid = new Map<string, Set<Wake>>()
  private stopListening?: () => Promise<void>
  private timer?: NodeJS.Timeout
  private lastSeq = 0
  private lastChange = ''
  private polling = false

  constructor(
    private readonly database: Database,
    private readonly pollMs: number,
  ) {}

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(LIVE_CHANNEL, (payload) =>
      this.onNotify(payload),
    )
    const start = await liveStart(this.database.db)
    this.lastSeq = start.seq
    this.lastChange = start.now
    if (this.pollMs > 0) {
      this.timer = setInterval(() => void this.poll(), this.pollMs)
      this.timer.unref()
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    await this.stopListening?.()
    this.stopListening = undefined
  }

  subscribe(uid: string, wake: Wake): () => void {
    let set = this.byUid.get(uid)
    if (!set) this.byUid.set(uid, (set = new Set()))
    set.add(wake)
    return () => {
      set.delete(wake)
      if (set.size === 0) this.byUid.delete(uid)
    }
  }

  get size(): number {
    let n = 0
    for (const s of this.byUid.values()) n += s.size
    return n
  }

  private wake(uid: string | null | undefined, reason?: WakeReason) {
    if (uid) for (const w of this.byUid.get(uid) ?? []) w(reason)
  }

  private wakeAll(reason?: WakeReason) {
    for (const set of this.byUid.values()) for (const w of set) w(reason)
  }

  private onNotify(payload: string) {
    try {
      const msg = JSON.parse(payload) as { t?: string; uid?: string | null; team?: string | null }
      // A team's job concerns every member: let each stream check what it may see.
      if (msg.t === 'job' && msg.team) this.wakeAll()
      else if (msg.t === 'team-item' && msg.team) {
        // A membership change names the person too: once removed, they are no member to find.
        if (msg.uid) this.wake(msg.uid, 'team-items')
        void this.wakeTeams([msg.team])
      } else this.wake(msg.uid)
    } catch {
      this.wakeAll('team-items')
    }
  }

  /** Wakes the streams of the teams' members (their team lists changed). */
  private async wakeTeams(teams: string[]) {
    if (this.byUid.size === 0 || teams.length === 0) return
    try {
      for (const uid of await membersOfTeams(this.database.db, teams)) {
        this.wake(uid, 'team-items')
      }
    } catch {
      this.wakeAll('team-items')
    }
  }

  /** The fallback: who had changes since the last poll (with a few seconds of overlap). */
  private async poll() {
    if (this.polling || this.byUid.size === 0) return
    this.polling = true
    try {
      const db = this.database.db
      const since = this.lastChange
      for (const n of await notificationsAfter(db, this.lastSeq)) {
        this.lastSeq = Math.max(this.lastSeq, Number(n.seq))
        this.wake(n.uid)
      }
      const now = await databaseNow(db)
      for (const uid of await profilesChangedSince(db, since)) this.wake(uid)
      const changedJobs = await jobsChangedSince(db, since)
      if (changedJobs.some((j) => j.team)) this.wakeAll()
      else for (const j of changedJobs) this.wake(j.uid)
      // Team items written without a NOTIFY (the course import, the worker's results).
      await this.wakeTeams(await teamsChangedAfter(db, since))
      this.lastChange = now
    } catch {
      // The database is restarting or closing: the next tick tries again.
    } finally {
      this.polling = false
    }
  }
}
