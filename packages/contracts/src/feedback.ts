// The built-in feedback form (the feedback popup without a configured survey).
import { z } from 'zod'
import { feedbackCreateSchema } from './users.ts'

/** What the form sends to POST /api/feedback, besides the page: a text, and a rating when given. */
export const feedbackFormSchema = feedbackCreateSchema.pick({ rating: true }).extend({
  text: z.string().trim().min(1, 'Write a few words before sending.'),
})
export type FeedbackForm = z.input<typeof feedbackFormSchema>
