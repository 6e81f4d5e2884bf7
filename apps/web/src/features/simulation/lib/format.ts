import { formatDayTime } from '../../../lib/dates.ts'
import { formatDuration as durationText } from '../../../lib/duration.ts'

/** "1:02:05" (h:mm:ss) or "12:05" (m:ss) for a duration in seconds. */
export const formatDuration = (seconds: number): string => durationText(seconds, 'clock')

/** "1 min 23 s" / "45 s" for a saving. */
export function formatSaving(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.round(Math.abs(seconds))
  const sign = seconds < -0.5 ? '−' : ''
  if (s < 60) return `${sign}${s} s`
  return `${sign}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}

export const percent = (grade: number, digits = 1) => `${(grade * 100).toFixed(digits)} %`

/** A time stamp as every date in the app is shown (lib/dates.ts): "12 Nov 2026, 14:05". */
export const formatDate = (iso: string): string => formatDayTime(iso)

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const

/** The nearest of the eight compass points to a bearing in degrees (0 = N, 90 = E). */
export function compassPoint(deg: number): string {
  if (!Number.isFinite(deg)) return ''
  const i = Math.round((((deg % 360) + 360) % 360) / 45) % 8
  return COMPASS[i]!
}

const EVENT_START = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/**
 * The event start "YYYY-MM-DDTHH:mm" (local time at the course, no zone) as a UTC-based Date that
 * only carries the wall-clock fields, or null when it is not a real date and time. Computing in
 * UTC keeps the browser's own zone and its daylight-saving jumps out of the clock times.
 */
export function parseEventStart(text: string): Date | null {
  const m = EVENT_START.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi))
  const same =
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi
  return same ? t : null
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * The clock time "HH:MM:SS" `offsetS` seconds after the event start, with "(+1 d)" when it falls
 * on a later day; null without a valid start.
 */
export function clockTime(eventStart: string | undefined, offsetS: number): string | null {
  const start = eventStart ? parseEventStart(eventStart) : null
  if (!start || !Number.isFinite(offsetS)) return null
  const t = new Date(start.getTime() + Math.round(offsetS) * 1000)
  const days = Math.floor(t.getTime() / 86_400_000) - Math.floor(start.getTime() / 86_400_000)
  const hms = `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`
  return days > 0 ? `${hms} (+${days} d)` : hms
}

/** "Sat 14 Mar 2026, 09:30" for an event start (the wall clock at the course). */
export function formatEventStart(eventStart: string): string {
  const t = parseEventStart(eventStart)
  if (!t) return eventStart
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][t.getUTCDay()]
  const month = [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ][t.getUTCMonth()]
  const date = `${day} ${t.getUTCDate()} ${month} ${t.getUTCFullYear()}`
  return `${date}, ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`
}
