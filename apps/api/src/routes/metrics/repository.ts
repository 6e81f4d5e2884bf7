// What the metrics read from the database.
import { sql } from 'drizzle-orm'
import { rows, type Db } from '@veloptima/db'

/** How many jobs are waiting (queued) and being worked on (running); absent statuses have none. */
export async function countActiveJobs(db: Db): Promise<{ status: string; n: number }[]> {
  return rows<{ status: string; n: number }>(
    db,
    sql`select status::text as status, count(*)::int as n from jobs
        where status in ('queued', 'running') group by status`,
  )
}
