import type { TokenDetails } from '../../engine'
import { formatTime } from '../shared/format'
import { describeAbility } from '../shared/abilities'
import { Name } from '../shared/quoted'

/** Abilities as a person reads them: each name, and its key-value limits in words. */
export function AbilityNames({ abilities }: { abilities: readonly string[] }) {
  return (
    <ul className="ability-names">
      {abilities.map((raw) => {
        const readable = describeAbility(raw)
        return (
          <li key={raw}>
            <code>
              <Name text={raw} />
            </code>
            {readable !== raw && (
              <span className="muted">
                {' '}
                (<Name text={readable} edges={false} />)
              </span>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/**
 * What `/_account/inspect` tells about a token, once its signature checks out. `listed`: among
 * authorizations only, so its kind goes without saying.
 */
export function TokenFacts({
  details,
  now,
  listed = false,
}: {
  details: TokenDetails
  now: number | undefined
  listed?: boolean
}) {
  const isSecret = details.kind === 'secret'
  const rollsAt = isSecret ? details.expiresAt : (details.secretExpiresAt ?? null)
  const rolled = rollsAt !== null && now !== undefined && rollsAt <= now
  return (
    <dl className="token-facts">
      {!listed && (
        <div>
          <dt>Kind</dt>
          <dd>
            {isSecret
              ? 'a secret key: it reaches every endpoint and all of the account’s data'
              : 'an authorization: it reaches only its abilities'}
          </dd>
        </div>
      )}
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
        <dt>
          {isSecret
            ? rolled
              ? 'Rolled'
              : 'Rolls'
            : rolled
              ? 'Its secret rolled'
              : 'Its secret rolls'}
        </dt>
        <dd>{rollsAt === null ? 'not scheduled' : formatTime(rollsAt)}</dd>
      </div>
    </dl>
  )
}
