import { describe, expect, it } from 'vitest'
import { planCsv } from './plan-csv.ts'

const section = {
  start_m: 0,
  end_m: 1250,
  label: 'climb with headwind',
  grade: 0.0712,
  power_w: 301.6,
  speed_mps: 4.2,
  duration_s: 297.6,
  elapsed_s: 297.6,
}

describe('plan CSV', () => {
  it('writes one row per section in km, %, W, km/h and h:mm:ss, CRLF-terminated', () => {
    const csv = planCsv([section, { ...section, start_m: 1250, end_m: 3600, elapsed_s: 3725.4 }])
    expect(csv.split('\r\n')).toEqual([
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time,elapsed',
      '1,0.00,1.25,climb with headwind,7.1,302,15.1,0:04:58,0:04:58',
      '2,1.25,3.60,climb with headwind,7.1,302,15.1,0:04:58,1:02:05',
      '',
    ])
  })

  it('quotes a field holding a comma or a quote (RFC 4180)', () => {
    const csv = planCsv([{ ...section, label: 'climb, "steep"' }])
    expect(csv.split('\r\n')[1]).toBe('1,0.00,1.25,"climb, ""steep""",7.1,302,15.1,0:04:58,0:04:58')
  })
})
