// The race-day forecast on the optimization page (an event start and a course with positions):
// when and from where it was fetched, the mean wind, and a small map of the course with the
// forecast wind at the middle of each stretch between the forecast points. The instant preview
// rides in this wind (lib/forecast-preview.ts); the run reads wind and air again where and when
// the optimized plan puts the rider.
import { MessageDetails } from '../../../components/message-details.tsx'
import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { forecastArrows, type CourseForecast } from '../lib/forecast-preview.ts'
import { weatherReason } from './ride-calibration-weather.ts'
import { RouteMap } from './route-map.tsx'

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

export function ForecastCard({
  forecast,
  loading,
  track,
}: {
  forecast: CourseForecast | undefined
  loading: boolean
  track: { lat: number[]; lon: number[] } | null | undefined
}) {
  const { system } = useUnits()
  if (loading && !forecast) {
    return (
      <p role="status" className="text-sm text-slate-500">
        Reading the race-day forecast…
      </p>
    )
  }
  if (!forecast) return null
  if (forecast.status !== 'used') {
    return (
      <MessageDetails
        tone="warning"
        testId="forecast-unavailable"
        message={`Forecast not available: ${weatherReason(forecast.reason)}. The preview and the run use the typed wind and air.`}
        detail={forecast.message}
      />
    )
  }
  const speed = (v: number) => formatQuantity('speed', v, system)
  const arrows = forecastArrows(forecast, speed)
  return (
    <div className="space-y-2" data-testid="forecast-card">
      <p className="text-sm">
        Forecast ({forecast.source}) fetched {utc(forecast.issued_at)} for the start{' '}
        {utc(forecast.start_utc)}: wind at rider height {speed(forecast.mean.wind_speed_mps)} from{' '}
        {Math.round(forecast.mean.wind_from_deg)}° on average. The preview rides in it (at the hours
        of a steady 36 km/h, air as typed); typed wind stretches win where they lie.
      </p>
      {track && track.lat.length > 1 && arrows.length > 0 ? (
        <RouteMap
          track={track}
          arrows={arrows}
          className="h-56"
          label="Race-day forecast wind along the course (arrows point where the wind blows)"
        />
      ) : null}
    </div>
  )
}
