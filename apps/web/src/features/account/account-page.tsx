import { useAuth } from '../../lib/auth.ts'

export function AccountPage() {
  const { user } = useAuth()
  return <h1 className="text-2xl font-bold text-slate-900">{user?.displayName}</h1>
}
