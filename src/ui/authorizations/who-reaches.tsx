import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import type { ReachedBy, ResourceQuery, WhoReachesReport } from '../../engine'
import { control } from '../shared/api'
import { useCatalogue } from '../shared/catalogue'
import { useConfig } from '../shared/config'
import { ErrorBoundary } from '../shared/error-boundary'
import { Field } from '../shared/field'
import { formatTime, messageOf } from '../shared/format'
import { procedureNames, proceduresQuery, keys } from '../shared/queries'
import { Name } from '../shared/quoted'
import { routeHref, useRoute, useRouteParam } from '../shared/router'
import { useRemembered, useTokenChoices, type TokenChoice } from '../shared/tokens'

/** Which of the tokens given (and every secret) reach `resource` now (decision 088). */
const whoReaches = (baseUrl: string, resource: ResourceQuery, tokens: readonly string[]) =>
  control<WhoReachesReport>(baseUrl, 'POST', 'who-reaches', { resource, tokens })

type Kind = 'endpoint' | 'key' | 'procedure'

/** The resource the view's parameters name, or `undefined` until one is named. */
function resourceOf(
  kind: Kind,
  name: string,
  bucket: string,
  key: string,
): ResourceQuery | undefined {
  if (kind === 'key') {
    if (bucket === '') return undefined
    return key === '' ? { bucket } : { bucket, key }
  }
  if (name.trim() === '') return undefined
  return kind === 'procedure' ? { procedure: name.trim() } : { endpoint: name.trim() }
}

/**
 * Who can reach it? The reverse of "What can this token do?", the question after a leak: for an
 * endpoint, a bucket and key, or a stored procedure, which of the account's secrets and of the
 * authorizations this page remembers reach it now, through which ability, and until when.
 * Answered by the engine's own rules over the control plane; kept in the view's URL (`who`,
 * `whoName`, `whoBucket`, `whoKey`), so the key-value and procedures views link to it.
 */
export function WhoReaches() {
  const { baseUrl } = useConfig()
  const id = useId()
  const [kindParam, setKind] = useRouteParam('authorizations', 'who')
  const [name, setName] = useRouteParam('authorizations', 'whoName')
  const [bucket, setBucket] = useRouteParam('authorizations', 'whoBucket')
  const [key, setKey] = useRouteParam('authorizations', 'whoKey')
  const kind: Kind = kindParam === 'key' || kindParam === 'procedure' ? kindParam : 'endpoint'
  const resource = resourceOf(kind, name ?? '', bucket ?? '', key ?? '')
  const remembered = useRemembered()
  const tokens = (remembered.data ?? []).map((saved) => saved.token)
  const catalogue = useCatalogue()
  const procedures = useQuery({ ...proceduresQuery(baseUrl), select: procedureNames })
  const report = useQuery({
    queryKey: [...keys.account(baseUrl), 'insight', 'who', resource ?? null, tokens],
    queryFn: () => whoReaches(baseUrl, resource!, tokens),
    enabled: resource !== undefined && remembered.isSuccess,
  })
  return (
    <section aria-labelledby="who-heading" className="panel who-reaches" data-testid="who-reaches">
      <h2 id="who-heading">Who can reach it?</h2>
      <p className="muted">
        After a leak, the question turned around: for an endpoint, a key or a stored procedure,
        which secrets and which authorizations this page knows reach it now, through which ability,
        and until when.
      </p>
      <div className="who-picks">
        <Field label="Resource">
          {(field) => (
            <select
              id={field}
              value={kind}
              onChange={(event) =>
                setKind(event.target.value === 'endpoint' ? null : event.target.value)
              }
            >
              <option value="endpoint">An endpoint</option>
              <option value="key">A bucket and key</option>
              <option value="procedure">A stored procedure</option>
            </select>
          )}
        </Field>
        {kind === 'key' ? (
          <>
            <Field label="Bucket">
              {(field) => (
                <input
                  id={field}
                  value={bucket ?? ''}
                  spellCheck={false}
                  onChange={(event) => setBucket(event.target.value || null)}
                />
              )}
            </Field>
            <Field label="Key (empty: the whole bucket)">
              {(field) => (
                <input
                  id={field}
                  value={key ?? ''}
                  spellCheck={false}
                  onChange={(event) => setKey(event.target.value || null)}
                />
              )}
            </Field>
          </>
        ) : (
          <Field label={kind === 'procedure' ? 'Procedure' : 'Endpoint'}>
            {(field) => (
              <>
                <input
                  id={field}
                  value={name ?? ''}
                  list={`${id}-names`}
                  spellCheck={false}
                  autoCapitalize="off"
                  onChange={(event) => setName(event.target.value || null)}
                />
                <datalist id={`${id}-names`}>
                  {(kind === 'procedure'
                    ? (procedures.data ?? [])
                    : (catalogue.data ?? []).map((endpoint) => endpoint.name)
                  ).map((option) => (
                    <option key={option} value={option} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        )}
      </div>
      {!resource ? (
        <p className="empty">
          Name an endpoint (<code>keyv.get</code>), a bucket and key (<code>users</code>,{' '}
          <code>alice/1</code>) or a stored procedure.
        </p>
      ) : report.isError ? (
        <p role="alert">The engine could not answer: {messageOf(report.error)}</p>
      ) : !report.data ? (
        <p className="muted">Asking the engine…</p>
      ) : (
        <ErrorBoundary what="The answer">
          <WhoReachesAnswer report={report.data} tokens={tokens} />
        </ErrorBoundary>
      )}
    </section>
  )
}

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

function WhoReachesAnswer({
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
