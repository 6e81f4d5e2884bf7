/** The NOTIFY channel of the live stream (triggers of migration 0002 and notifyTeamItems). */
export const LIVE_CHANNEL = 'veloptima_live'
