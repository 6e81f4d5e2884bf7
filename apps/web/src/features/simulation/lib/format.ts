/** "1:02:05" (h:mm:ss) or "12:05" (m:ss) for a duration in seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.round(Math.abs(seconds))
  const sign = seconds < 0 ? '−' : ''
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0')
  return `${sign}${h > 0 ? `${h}:` : ''}${mm}:${String(r).padStart(2, '0')}`
}

/** "1 min 23 s" / "45 s" for a saving. */
export function formatSaving(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—'
  const s = Math.round(Math.abs(seconds))
  const sign = seconds < -0.5 ? '−' : ''
  if (s < 60) return `${sign}${s} s`
  return `${sign}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}

export const percent = (grade: number, digits = 1) => `${(grade * 100).toFixed(digits)} %`

export function formatDate(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString()
}
