import type { AccountSnapshot } from '../../engine'
import { control } from '../shared/control'

export const resetAccount = (baseUrl: string) => control<{ ok: true }>(baseUrl, 'POST', 'reset', {})

export const exportAccount = (baseUrl: string) => control<AccountSnapshot>(baseUrl, 'GET', 'export')

/** Replaces the whole account with an exported one; the engine refuses what its API would. */
export const importAccount = (baseUrl: string, snapshot: object) =>
  control<{ ok: true }>(baseUrl, 'POST', 'import', snapshot)
