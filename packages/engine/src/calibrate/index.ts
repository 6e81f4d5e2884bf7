// Calibrate from a ride: effective CdA, Crr and wind from a recorded ride with power.
export * from './types.ts'
export { calibrateRide, windFromDeg, HELD_CRR, OUTLIER_WINDOW_S, OUTLIER_Z } from './calibrate.ts'
export { samplesOnCourse } from './on-course.ts'
export type { CoursePoints, SamplesOnCourse } from './on-course.ts'
export { calibrateRecordedRide, compareReplay } from './ride.ts'
export type {
  RecordedRide,
  RideCalibrationInput,
  RideCalibrationReport,
  ReplayComparison,
} from './ride.ts'
export { applyRideWeather, rideWeatherEnvironment, validateRideWeather } from './weather.ts'
export type { RideWeather, WeatherUsed } from './weather.ts'
