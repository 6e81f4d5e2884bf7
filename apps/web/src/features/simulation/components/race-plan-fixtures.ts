// The race the result cards' tests run through the engine: a flat start, a 5 % climb, a descent
// and a long false flat (its last flat `lastM` metres long), ridden at 32 °C by a 72 kg rider of
// CP 300 W. Shared by fuel-card.test.tsx and plan-outcome.test.tsx.

export const racePlanCourse = (lastM: number) => ({
  segments: [
    { length_m: 8000, grade: 0 },
    { length_m: 5000, grade: 0.05 },
    { length_m: 5000, grade: -0.04 },
    { length_m: 20000, grade: 0.005 },
    { length_m: lastM, grade: 0 },
  ],
})

export const racePlanRider = {
  mass_kg: 72,
  bike_mass_kg: 8,
  cda_m2: 0.25,
  crr: 0.004,
  drivetrain_efficiency: 0.976,
  cp_w: 300,
  w_prime_j: 20000,
  max_power_w: 800,
}
