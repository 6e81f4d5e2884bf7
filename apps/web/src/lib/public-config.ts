import { useQuery } from '@tanstack/react-query'

/** GET /api/public-config: the links and settings the shell needs before anyone signs in. */
export type ShellConfig = {
  support_url: string
  feedback_survey_url: string | null
  terms_url: string
  privacy_url: string
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: async (): Promise<ShellConfig> => {
      const response = await fetch('/api/public-config')
      if (!response.ok) throw new Error(`public-config answered ${response.status}`)
      return (await response.json()) as ShellConfig
    },
    staleTime: Infinity,
  })
}
