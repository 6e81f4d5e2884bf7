// How the app writes a duration in seconds: as a clock ("1:02:05", "12:05") where times are read
// (results, splits), in words ("1 min 26 s", "45 s") where a time is gained or lost.

/** `clock`: "h:mm:ss" or "m:ss"; `words`: "1 min 26 s" or "45 s". */
export type DurationStyle = 'clock' | 'words'

/** A duration in seconds, rounded to the second, "−" before a negative one; "—" when not finite. */
export function formatDuration(seconds: number, style: DurationStyle = 'clock'): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.round(Math.abs(seconds))
  const sign = seconds < 0 ? '−' : ''
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  if (style === 'words') return s < 60 ? `${sign}${s} s` : `${sign}${Math.floor(s / 60)} min ${r} s`
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0')
  return `${sign}${h > 0 ? `${h}:` : ''}${mm}:${String(r).padStart(2, '0')}`
}
