import { createBrowserRouter } from 'react-router'
import { LandingHero } from '../features/home/components/landing-hero.tsx'

export const router = createBrowserRouter([{ path: '/', element: <LandingHero /> }])
