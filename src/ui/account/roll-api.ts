import type { SecretView } from '../../engine'
import { control } from '../shared/api'

/** Cancels the scheduled roll of `id` (`POST /_account/secrets/<id>/cancel-roll`): it lives on. */
export const cancelRoll = (baseUrl: string, id: string) =>
  control<SecretView>(baseUrl, 'POST', `secrets/${encodeURIComponent(id)}/cancel-roll`, {})
