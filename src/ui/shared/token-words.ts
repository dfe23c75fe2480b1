import type { TokenReport } from '../../engine'

/**
 * What a token is now, in the words the authorization cards use: `usable`, `expired`,
 * `dead because its secret rolled`, `dead: its secret is gone`, `invalid`. Menus and notes
 * say the same, rather than the engine's bare state (`invalid` for a rolled secret's child).
 */
export function stateWords(report: TokenReport | undefined): string {
  if (!report) return 'not checked yet'
  if (report.state === 'usable') return 'usable'
  if (report.reason === 'secret_rolled') {
    return report.details?.kind === 'secret' ? 'expired: rolled' : 'dead because its secret rolled'
  }
  if (report.state === 'expired') return 'expired'
  if (report.reason === 'secret_unknown') return 'dead: its secret is gone'
  return 'invalid'
}
