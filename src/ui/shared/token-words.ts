import type { TokenReport } from '../../engine'
import { liveStatus } from './token-state'

/**
 * What a token is now, in the words the authorization cards use: `usable`, `expired`,
 * `dead because its secret rolled`, `dead: its secret is gone`, `invalid`. Menus and notes
 * say the same, rather than the engine's bare state (`invalid` for a rolled secret's child).
 * The cause is the cards' own (`liveStatus`, the first in time, decision 087), in short.
 */
export function stateWords(report: TokenReport | undefined): string {
  const status = liveStatus(report, undefined)
  switch (status.state) {
    case 'unknown':
      return 'not checked yet'
    case 'usable':
      return 'usable'
    case 'expired':
      return report?.details?.kind === 'secret' ? 'expired: rolled' : 'expired'
    case 'dead':
      return 'dead because its secret rolled'
    case 'invalid':
      return report?.reason === 'secret_unknown' ? 'dead: its secret is gone' : 'invalid'
  }
}
