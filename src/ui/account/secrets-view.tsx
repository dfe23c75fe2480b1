import { useQueries, useQuery } from '@tanstack/react-query'
import { createSecret } from '../shared/api'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { NextStep } from '../shared/next-step'
import { inspectQuery, secretsQuery, useAccountMutation } from '../shared/queries'
import { routeHref } from '../shared/router'
import { useRemembered } from '../shared/tokens'
import { ScenarioPicker } from '../scenarios/scenario-picker'
import { SecretRow, type Descendant } from './secret-row'

/**
 * Account settings: the secrets that reach every endpoint. Each can be rolled now (it dies at
 * once, with every authorization made from it: the row says how many the page knows of) or at
 * a time on the virtual clock (both work until then), and a scheduled roll can be cancelled.
 */
export default function SecretsView() {
  const { baseUrl } = useConfig()
  const secrets = useQuery(secretsQuery(baseUrl))
  const now = useNow()
  const create = useAccountMutation(() => createSecret(baseUrl))
  const descendants = useDescendants()

  return (
    <section aria-labelledby="secrets-heading" className="panel">
      <div className="panel-heading">
        <h2 id="secrets-heading">Secrets</h2>
        <button
          type="button"
          className="primary"
          disabled={create.isPending}
          onClick={() => create.mutate()}
        >
          Create secret
        </button>
      </div>
      <p className="muted">
        A secret key reaches every endpoint and every key of the account. Use it to create
        authorizations, and give those out instead.
      </p>
      {create.isError && <p role="alert">{messageOf(create.error)}</p>}
      {create.isSuccess && (
        <NextStep testId="secret-created">
          Created <code>{create.data.id}</code>. Next:{' '}
          <a href={routeHref('authorizations')}>compose an authorization</a> that reaches only what
          a client needs, signed with it, or <a href={routeHref('console')}>call an endpoint</a>{' '}
          with it in the console.
        </NextStep>
      )}
      {secrets.isPending && (
        <p className="muted" role="status">
          Reading the account&apos;s secrets…
        </p>
      )}
      {secrets.isError && <p role="alert">{messageOf(secrets.error)}</p>}
      {secrets.data?.length === 0 && (
        <p className="empty">
          No secrets yet. Create one to start calling endpoints: it signs the authorizations you
          give out.
        </p>
      )}
      {secrets.data && secrets.data.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Secrets" className="secrets">
            <thead>
              <tr>
                <th scope="col">Secret</th>
                <th scope="col">State</th>
                <th scope="col">Times</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.map((secret) => (
                <SecretRow
                  key={secret.id}
                  secret={secret}
                  now={now}
                  descendants={descendants.get(secret.id) ?? []}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ScenarioPicker compact />
    </section>
  )
}

/**
 * The usable authorizations the page remembers that descend from each secret (directly, or
 * through an authorization that minted them: the root secret is what they die with).
 */
function useDescendants(): Map<string, Descendant[]> {
  const { baseUrl } = useConfig()
  const saved = useRemembered().data ?? []
  const reports = useQueries({ queries: saved.map((s) => inspectQuery(baseUrl, s.token)) })
  const found = new Map<string, Descendant[]>()
  reports.forEach((report) => {
    const details = report.data?.state === 'usable' ? report.data.details : undefined
    if (!details?.secretId) return
    const list = found.get(details.secretId) ?? []
    list.push({ abilities: details.abilities ?? [], expiresAt: details.expiresAt })
    found.set(details.secretId, list)
  })
  return found
}
