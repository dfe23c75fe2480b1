import type { TokenDetails } from '../../engine'
import { formatTime } from '../format'
import { describeAbility } from './abilities'

/** Abilities as a person reads them: each name, and its key-value limits in words. */
export function AbilityNames({ abilities }: { abilities: readonly string[] }) {
  return (
    <ul className="ability-names">
      {abilities.map((raw) => {
        const readable = describeAbility(raw)
        return (
          <li key={raw}>
            <code>{raw}</code>
            {readable !== raw && <span className="muted"> ({readable})</span>}
          </li>
        )
      })}
    </ul>
  )
}

/** What `/_account/inspect` tells about a token, once its signature checks out. */
export function TokenFacts({ details }: { details: TokenDetails }) {
  const isSecret = details.kind === 'secret'
  const rollsAt = isSecret ? details.expiresAt : (details.secretExpiresAt ?? null)
  return (
    <dl className="token-facts">
      <div>
        <dt>Kind</dt>
        <dd>
          {isSecret
            ? 'a secret key: it reaches every endpoint and all of the account’s data'
            : 'an authorization: it reaches only its abilities'}
        </dd>
      </div>
      <div>
        <dt>{isSecret ? 'Secret' : 'Descends from secret'}</dt>
        <dd>
          <code>{details.secretId}</code>
        </dd>
      </div>
      {!isSecret && (
        <div>
          <dt>Abilities</dt>
          <dd>
            <AbilityNames abilities={details.abilities ?? []} />
          </dd>
        </div>
      )}
      {!isSecret && (
        <div>
          <dt>Insecure</dt>
          <dd>
            {details.insecure
              ? 'yes: made with insecure: true'
              : 'no: it holds no insecure ability'}
          </dd>
        </div>
      )}
      {details.createdAt !== undefined && (
        <div>
          <dt>Created</dt>
          <dd>{formatTime(details.createdAt)}</dd>
        </div>
      )}
      {!isSecret && (
        <div>
          <dt>Expires</dt>
          <dd>{details.expiresAt === null ? 'never' : formatTime(details.expiresAt)}</dd>
        </div>
      )}
      <div>
        <dt>{isSecret ? 'Rolls' : 'Its secret rolls'}</dt>
        <dd>{rollsAt === null ? 'not scheduled' : formatTime(rollsAt)}</dd>
      </div>
    </dl>
  )
}
