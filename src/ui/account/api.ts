import type { SecretView } from '../../engine'
import { control } from '../shared/control'

export { AccountError } from '../shared/control'

export interface ClockView {
  /** Unix seconds on the engine's virtual clock. */
  now: number
}

export const listSecrets = (baseUrl: string) => control<SecretView[]>(baseUrl, 'GET', 'secrets')

export const createSecret = (baseUrl: string) => control<SecretView>(baseUrl, 'POST', 'secrets', {})

/** Rolls `id` now, or at `at` (Unix seconds on the virtual clock); returns the replacement. */
export const rollSecret = (baseUrl: string, id: string, at?: number) =>
  control<SecretView>(
    baseUrl,
    'POST',
    `secrets/${encodeURIComponent(id)}/roll`,
    at === undefined ? {} : { at },
  )

export const getClock = (baseUrl: string) => control<ClockView>(baseUrl, 'GET', 'clock')

export const advanceClock = (baseUrl: string, seconds: number) =>
  control<ClockView>(baseUrl, 'POST', 'clock', { advance: seconds })
