import type { ReachedBy, ResourceQuery, WhoReachesReport } from '../../engine'
import { formatTime } from '../shared/format'
import { Name } from '../shared/quoted'
import { routeHref, useRoute } from '../shared/router'
import { useTokenChoices, type TokenChoice } from '../shared/tokens'

/** The resource, as the answer names it. */
function resourceText(resource: ResourceQuery): string {
  if (resource.procedure !== undefined) return `lib.${resource.procedure}`
  if (resource.bucket !== undefined) {
    return resource.key === undefined
      ? `bucket ${resource.bucket}`
      : `bucket ${resource.bucket}, key ${resource.key}`
  }
  return resource.endpoint ?? ''
}

/** Who reaches the resource: each token, through which ability, and until when. */
export function WhoReachesAnswer({
  report,
  tokens,
}: {
  report: WhoReachesReport
  tokens: readonly string[]
}) {
  const { choices } = useTokenChoices()
  const choiceOf = (entry: ReachedBy): TokenChoice | undefined =>
    entry.index === null
      ? choices.find((c) => c.id === `secret:${entry.token.secretId}`)
      : choices.find((c) => c.id === `authorization:${tokens[entry.index!]}`)
  const reaching = report.tokens.filter((entry) => entry.reaches)
  const minting = report.tokens.filter((entry) => !entry.reaches && entry.delegates)
  const dead = report.tokens.filter((entry) => entry.token.state !== 'usable').length
  const others = report.tokens.length - reaching.length - minting.length - dead
  return (
    <div data-testid="who-answer">
      <p className="who-verdict" data-testid="who-verdict">
        <strong>
          {reaching.length === 0
            ? 'No token this page knows reaches'
            : `${reaching.length} ${reaching.length === 1 ? 'token reaches' : 'tokens reach'}`}{' '}
          <code>
            <Name text={resourceText(report.resource)} />
          </code>{' '}
          at {formatTime(report.at)}
        </strong>
        {reaching.length > 0 ? ':' : '.'}
      </p>
      {reaching.length > 0 && (
        <table className="who-table" aria-label="Tokens that reach it">
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col">Through</th>
              <th scope="col">Until</th>
            </tr>
          </thead>
          <tbody>
            {reaching.map((entry) => (
              <tr
                key={`${entry.source}-${entry.index ?? entry.token.secretId}`}
                data-testid="who-row"
              >
                <td>
                  <TokenName entry={entry} choice={choiceOf(entry)} />
                </td>
                <td>
                  <ul className="who-through">
                    {entry.through.map((way, i) => (
                      <li key={i}>
                        <code>
                          <Name text={way.endpoint} />
                        </code>{' '}
                        {way.grant === 'secret' ? (
                          'by the secret key'
                        ) : (
                          <>
                            by{' '}
                            <code>
                              <Name text={way.ability ?? ''} />
                            </code>
                            {typeof way.keys === 'object' && (
                              <>
                                {' '}
                                (keys under{' '}
                                <code>
                                  <Name text={way.keys.prefix} />
                                </code>{' '}
                                only)
                              </>
                            )}
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  {entry.until === null
                    ? entry.token.kind === 'secret'
                      ? 'until it is rolled'
                      : 'no expiry: until its secret is rolled'
                    : `${formatTime(entry.until)} (${
                        entry.because === 'expiry'
                          ? 'it expires'
                          : entry.token.kind === 'secret'
                            ? 'its roll takes effect'
                            : 'its secret rolls'
                      })`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {minting.length > 0 && (
        <p data-testid="who-minting">
          And {minting.length === 1 ? 'one more' : `${minting.length} more`} could mint a token that
          does, holding <code>auth.create</code>:{' '}
          {minting.map((entry, i) => (
            <span key={i}>
              {i > 0 && ', '}
              <TokenName entry={entry} choice={choiceOf(entry)} />
            </span>
          ))}
          .
        </p>
      )}
      <p className="muted">
        {others > 0 &&
          `${others} other ${others === 1 ? 'token does' : 'tokens do'} not reach it. `}
        {dead > 0 &&
          `${dead} ${dead === 1 ? 'is' : 'are'} dead (expired, or their secret rolled) and reach nothing. `}
        Only what this page knows is asked: its secrets, and the authorizations made here. To cut
        off an authorization, roll the secret it hangs from in{' '}
        <a href={routeHref('secrets')}>Secrets</a>.
      </p>
    </div>
  )
}

/** A token as the answer names it, with a link to what it can do (the question kept). */
function TokenName({ entry, choice }: { entry: ReachedBy; choice: TokenChoice | undefined }) {
  const { params } = useRoute()
  const inspect = new URLSearchParams(params)
  if (choice) inspect.set('inspect', choice.id)
  const label =
    entry.token.kind === 'secret'
      ? `Secret ${entry.token.secretId}`
      : `Authorization [${(entry.token.abilities ?? []).join(', ')}]`
  return choice ? (
    <a href={routeHref('authorizations', inspect)}>
      <Name text={label} />
    </a>
  ) : (
    <Name text={label} />
  )
}
