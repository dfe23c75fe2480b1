import { useQuery } from '@tanstack/react-query'
import { messageOf } from '../format'
import { createSecret } from './api'
import { ClockControl } from './clock-control'
import { secretsQuery, useAccountMutation } from './queries'
import { SecretRow } from './secret-row'

/** Account settings: the secrets that reach every endpoint, and the virtual clock. */
export function AccountPanel({ baseUrl }: { baseUrl: string }) {
  const secrets = useQuery(secretsQuery(baseUrl))
  const create = useAccountMutation(baseUrl, () => createSecret(baseUrl))

  return (
    <section aria-labelledby="account-heading" className="panel">
      <h2 id="account-heading">Account</h2>
      <h3>Secrets</h3>
      <button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
        Create secret
      </button>
      {create.isError && <p role="alert">{messageOf(create.error)}</p>}
      {secrets.isError && <p role="alert">{messageOf(secrets.error)}</p>}
      {secrets.data?.length === 0 && <p>No secrets yet.</p>}
      {secrets.data && secrets.data.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Secrets">
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
                <SecretRow key={secret.id} baseUrl={baseUrl} secret={secret} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ClockControl baseUrl={baseUrl} />
    </section>
  )
}
