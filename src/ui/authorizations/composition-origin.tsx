import { formatDuration } from '../shared/format'
import { Name } from '../shared/quoted'
import { replaceParams, useRoute } from '../shared/router'
import type { Composition } from './compose'
import { ORIGIN_PARAMS } from './use-composition'

/** An ability as code. */
const Code = ({ text }: { text: string }) => (
  <code>
    <Name text={text} />
  </code>
)

/**
 * Where the composition came from, when a refusal's "Compose an authorization with …" filled it
 * (`from=refused`, the refused token's abilities as `was`): what it kept of the refused token and
 * the one change made, so that the fix is read as the same token, not a new one.
 */
export function CompositionOrigin({ composition }: { composition: Composition }) {
  const { view, params } = useRoute()
  if (view !== 'authorizations' || params.get('from') !== 'refused') return null
  const was = params.getAll('was')
  const added = composition.abilities.filter((ability) => !was.includes(ability))
  const dropped = was.filter((ability) => !composition.abilities.includes(ability))
  const kept = was.filter((ability) => composition.abilities.includes(ability))
  const ttl = Number(composition.ttl)
  const lifetime = composition.expiry
    ? `its expiry (${composition.expiry.replace('T', ' ')} UTC)`
    : composition.ttl && Number.isFinite(ttl)
      ? `its lifetime (a ttl of ${formatDuration(ttl)}, the same length from now)`
      : 'no expiry, as it had none'
  function forget() {
    replaceParams(
      'authorizations',
      new URLSearchParams([...params].filter(([name]) => !ORIGIN_PARAMS.has(name))),
    )
  }
  return (
    <div className="composition-origin" data-testid="composition-origin" role="note">
      <p>
        <strong>From the refused authorization.</strong> Kept as it was:{' '}
        {kept.length > 0 ? (
          <>
            {kept.map((ability, i) => (
              <span key={ability}>
                {i > 0 && ', '}
                <Code text={ability} />
              </span>
            ))}
            ,{' '}
          </>
        ) : null}
        {lifetime}, {composition.insecure ? 'insecure: true' : 'no insecure abilities'}
        {params.get('signer')
          ? ' and its secret'
          : '; signed by a live secret, since its own no longer signs'}
        . Changed:{' '}
        {added.length === 0 && dropped.length === 0 ? (
          'nothing it holds: it is minted again'
        ) : dropped.length === 1 && added.length === 1 ? (
          <>
            <Code text={dropped[0]!} /> widened to <Code text={added[0]!} />
          </>
        ) : (
          <>
            {added.map((ability, i) => (
              <span key={ability}>
                {i > 0 && ', '}
                <Code text={ability} />
              </span>
            ))}{' '}
            added
            {dropped.map((ability) => (
              <span key={ability}>
                , <Code text={ability} /> taken out
              </span>
            ))}
          </>
        )}
        .
      </p>
      <button type="button" className="link" onClick={forget}>
        Hide this note
      </button>
    </div>
  )
}
