import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import type { ResourceQuery, WhoReachesReport } from '../../engine'
import { control } from '../shared/api'
import { useCatalogue } from '../shared/catalogue'
import { useConfig } from '../shared/config'
import { ErrorBoundary } from '../shared/error-boundary'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { procedureNames, proceduresQuery, keys } from '../shared/queries'
import { useRouteParam } from '../shared/router'
import { useRemembered } from '../shared/tokens'
import { WhoReachesAnswer } from './who-reaches-answer'

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
