// The Open-Meteo stand-in as a process, for the e2e journeys (e2e/playwright.config.ts points
// WEATHER_URL at it): `tsx apps/api/src/weather/stand-in-main.ts` with PORT.
import { startOpenMeteoStandIn } from './stand-in.ts'

const standIn = await startOpenMeteoStandIn(Number(process.env.PORT ?? 0))
console.log(`Open-Meteo stand-in on ${standIn.url}`)
const stop = () => void standIn.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
