// Dates as the app shows them: in the user's locale (its order and its month names) but never in
// an all-numeric form, so that 12 November is never read as 11 December (docs/web-app.md,
// "Dates"): "12 Nov 2026" (en-GB), "Nov 12, 2026" (en-US), "12. Nov. 2026" (de).

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' }
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: '2-digit', minute: '2-digit' }

function format(value: string | Date, options: Intl.DateTimeFormatOptions, locale?: string) {
  const d = typeof value === 'string' ? new Date(value) : value
  if (Number.isNaN(d.getTime())) return typeof value === 'string' ? value : ''
  return new Intl.DateTimeFormat(locale, options).format(d)
}

/** The day of an ISO time stamp or a Date: "12 Nov 2026"; the text itself when it is no date. */
export const formatDay = (value: string | Date, locale?: string) => format(value, DAY, locale)

/** The day and the time of day: "12 Nov 2026, 14:05"; the text itself when it is no date. */
export const formatDayTime = (value: string | Date, locale?: string) =>
  format(value, DAY_TIME, locale)
