// The aero pages' forms: the texts as typed, turned into the API's bodies and checked by its
// schemas, with the forms' own messages where the user sees one.
import { z } from 'zod'
import { aeroSessionCreateSchema, deviceCreateSchema } from '@veloptima/contracts'

const sessionCreateBody = aeroSessionCreateSchema.omit({ owner: true })
const deviceCreateBody = deviceCreateSchema.omit({ owner: true })

/** The new-session form: name, location and format as typed; the body is trimmed. */
export const newSessionFormSchema = z
  .object({ name: z.string(), location: z.string(), format: z.enum(['v6', 'v5']) })
  .transform((f): z.input<typeof sessionCreateBody> => ({
    name: f.name.trim(),
    format: f.format,
    location: f.location.trim() || null,
  }))
  .pipe(sessionCreateBody)
export type NewSessionForm = z.input<typeof newSessionFormSchema>

/** Calibration factor as typed: empty = none (the sensor's default, 1.400), else 0.5–3. */
export function factorOf(text: string): { value: number | null; error?: string } {
  if (text.trim() === '') return { value: null }
  const v = Number(text.replace(',', '.'))
  if (!Number.isFinite(v) || v < 0.5 || v > 3) {
    return {
      value: null,
      error: 'Calibration factor: a number between 0.5 and 3 (Aerosensor: about 1.4).',
    }
  }
  return { value: v }
}

/** The device form's texts; model and firmware empty = none. */
export const deviceFormSchema = z
  .object({
    serial: z.string(),
    name: z.string(),
    model: z.string(),
    firmware: z.string(),
    factor: z.string(),
  })
  .transform((f, ctx): z.input<typeof deviceCreateBody> => {
    const factor = factorOf(f.factor)
    if (factor.error) {
      ctx.addIssue({ code: 'custom', path: ['factor'], message: factor.error })
      return z.NEVER
    }
    return {
      serial: f.serial.trim(),
      name: f.name.trim(),
      model: f.model.trim() || null,
      firmware: f.firmware.trim() || null,
      calibration: factor.value != null ? { calibration_factor: factor.value } : {},
    }
  })
  .pipe(deviceCreateBody)
export type DeviceForm = z.input<typeof deviceFormSchema>
export type DeviceBody = z.output<typeof deviceFormSchema>
