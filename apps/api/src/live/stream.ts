import type { ServerResponse } from 'node:http'
import type { Db } from '@veloptima/db'
import type { LiveJob } from '@veloptima/contracts'
import { unshownAfter } from '../repositories/notifications.ts'
import { notificationJson } from '../services/notifications.ts'
import { profileJson } from '../services/users.ts'
import type { WakeReason } from './hub.ts'
import { profileWithStamp, teamItemSignature, visibleJobsChangedSince } from './repository.ts'
import { changedTeamItems } from './team-items.ts'

/** How long a commit may lag behind the seq it took (a job's last transaction is short). */
const SETTLE_MS = 10_000

/**
 * One caller's Server-Sent Events stream. `pump` sends whatever is new since the last pump:
 * unshown notifications after the last seq sent (each with `id: seq`, so the browser's
 * Last-Event-ID resumes exactly there), the rider profile when its updated_at changed, and
 * jobs that changed. Pumps never overlap; a wake-up during a pump runs one more.
 */
export class LiveStream {
  private running = false
  private again = false
  private profileStamp: string | undefined
  private readonly jobStamps = new Map<string, string>()
  /** What the caller's teams held at the last reading (undefined before the first). */
  private teamItems: Map<string, string> | undefined
  /** Whether a team's items changed since that reading (true: the first pump reads them). */
  private teamItemsDirty = true
  private closed = false
  /** Every unshown notification with seq ≤ floor was sent (or committed before the stream). */
  private floor: number
  /** Seqs above the floor already sent, with when. */
  private readonly sent = new Map<number, number>()

  constructor(
    private readonly db: Db,
    private readonly uid: string,
    private readonly res: ServerResponse,
    private lastSeq: number,
    private readonly since: string,
  ) {
    this.floor = lastSeq
  }

  write(chunk: string) {
    if (!this.closed) this.res.write(chunk)
  }

  send(event: string, data: unknown, id?: number) {
    this.write(
      `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
    )
  }

  close() {
    this.closed = true
  }

  wake = (reason?: WakeReason) => {
    if (reason === 'team-items') this.teamItemsDirty = true
    if (this.running) {
      this.again = true
      return
    }
    void this.pump()
  }

  async pump(): Promise<void> {
    if (this.closed) return
    this.running = true
    try {
      do {
        this.again = false
        await this.pumpOnce()
      } while (this.again && !this.closed)
    } catch {
      // A query failed (database closing); the next wake-up tries again.
    } finally {
      this.running = false
    }
  }

  private async pumpOnce() {
    // Seqs are taken at insert but become visible at commit: with several writers (worker
    // processes) seq 34 can commit before seq 33. So the feed reads from `floor`, below which
    // everything is settled, and skips what it sent already; a seq counts as settled once it and
    // every seq below it that the feed saw were sent more than SETTLE_MS ago.
    const now = Date.now()
    let after = this.floor
    let settling = true
    for (;;) {
      const batch = await unshownAfter(this.db, this.uid, after)
      for (const n of batch) {
        if (!this.sent.has(n.seq)) {
          this.send('notification', notificationJson(n), n.seq)
          this.sent.set(n.seq, now)
          this.lastSeq = Math.max(this.lastSeq, n.seq)
        }
        settling &&= now - this.sent.get(n.seq)! >= SETTLE_MS
        if (settling) this.floor = n.seq
        after = n.seq
      }
      if (batch.length < 100) break
    }
    for (const seq of this.sent.keys()) if (seq <= this.floor) this.sent.delete(seq)

    const p = await profileWithStamp(this.db, this.uid)
    const stamp = p?.profile ? p.stamp : 'none'
    if (stamp !== this.profileStamp) {
      this.profileStamp = stamp
      this.send('rider-profile', p?.profile ? profileJson(p.profile, p.displayName) : null)
    }

    const changed = await visibleJobsChangedSince(this.db, this.uid, this.since)
    for (const { job, stamp: at } of changed) {
      // Status and progress too, in case a writer changed them without touching updated_at.
      const s = `${at}|${job.status}|${job.progress}|${job.message ?? ''}`
      if (this.jobStamps.get(job.id) === s) continue
      this.jobStamps.set(job.id, s)
      const data: LiveJob = {
        id: job.id,
        kind: job.kind,
        status: job.status,
        progress: job.progress,
        message: job.message,
        subject_type: job.subjectType,
        subject_id: job.subjectId,
        updated_at: job.updatedAt.toISOString(),
      }
      this.send('job', data)
    }

    // Team lists: a member's new course (or any change to the team's items) tells the others
    // which list to reload. Read only when the hub said a team's items changed (a query every
    // other wake-up skips); the first reading is the baseline.
    if (!this.teamItemsDirty) return
    this.teamItemsDirty = false
    let signature: Map<string, string>
    try {
      signature = await teamItemSignature(this.db, this.uid)
    } catch (error) {
      this.teamItemsDirty = true
      throw error
    }
    if (this.teamItems) {
      for (const change of changedTeamItems(this.teamItems, signature))
        this.send('team-item', change)
    }
    this.teamItems = signature
  }
}
