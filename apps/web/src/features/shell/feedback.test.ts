import { describe, expect, it } from 'vitest'
import { surveyUrl } from './feedback.tsx'

describe('feedback survey address (docs/specification.md §6: passes e-mail and uid)', () => {
  it('adds email and uid, encoded, keeping the survey’s own parameters', () => {
    const url = new URL(
      surveyUrl('https://survey.example/s/abc?lang=en', 'a+b@example.com', 'auth0|42', 'http://x'),
    )
    expect(url.origin + url.pathname).toBe('https://survey.example/s/abc')
    expect(url.searchParams.get('lang')).toBe('en')
    expect(url.searchParams.get('email')).toBe('a+b@example.com')
    expect(url.searchParams.get('uid')).toBe('auth0|42')
  })
  it('resolves a relative survey path against the app origin', () => {
    expect(surveyUrl('/survey', 'r@example.com', 'u1', 'http://localhost:5173')).toBe(
      'http://localhost:5173/survey?email=r%40example.com&uid=u1',
    )
  })
})
