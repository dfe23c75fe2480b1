import { Masked } from '../shared/masked'

/** The headers of a request or response, each as it travelled; a bearer token masked. */
export function HeaderList({
  label,
  headers,
}: {
  label: string
  headers: Array<[string, string]>
}) {
  if (headers.length === 0) return <p className="muted">No headers.</p>
  return (
    <dl className="log-headers" aria-label={label}>
      {headers.map(([name, value], index) => (
        <div key={`${name}-${index}`}>
          <dt>{name}</dt>
          <dd>
            <HeaderValue name={name} value={value} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

function HeaderValue({ name, value }: { name: string; value: string }) {
  if (name.toLowerCase() !== 'authorization') return <code>{value}</code>
  const bearer = /^(\S+\s+)(\S+)$/.exec(value)
  if (!bearer) return <Masked value={value} label="the authorization header" />
  return (
    <span className="log-bearer">
      <code>{bearer[1]}</code>
      <Masked value={bearer[2]!} label="the token sent" />
    </span>
  )
}
