import { useQuery } from '@tanstack/react-query'
import { createSecret } from '../shared/api'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { secretsQuery, useAccountMutation } from '../shared/queries'
import { SecretRow } from './secret-row'

/**
 * Account settings: the secrets that reach every endpoint. Each can be rolled now (it dies at
 * once, with every authorization made from it) or at a time on the virtual clock (both work
 * until then).
 */
export default function SecretsView() {
  const { baseUrl } = useConfig()
  const secrets = useQuery(secretsQuery(baseUrl))
  const now = useNow()
  const create = useAccountMutation(() => createSecret(baseUrl))

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
      {secrets.isError && <p role="alert">{messageOf(secrets.error)}</p>}
      {secrets.data?.length === 0 && (
        <p className="empty">No secrets yet. Create one to start calling endpoints.</p>
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
                <SecretRow key={secret.id} secret={secret} now={now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
