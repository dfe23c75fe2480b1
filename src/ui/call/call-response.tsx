import type { CallResult } from './api'

export function CallResponse({ result }: { result: CallResult }) {
  const headers = Object.entries(result.headers)
  return (
    <section aria-labelledby="response-heading" className="response">
      <h3 id="response-heading">Response</h3>
      <p>
        Status:{' '}
        <output data-testid="response-status" className={result.status < 400 ? 'ok' : 'failed'}>
          {result.status}
        </output>{' '}
        {result.statusText}
      </p>
      {headers.length > 0 && (
        <dl className="headers" aria-label="Response headers">
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd data-testid={`response-header-${name}`}>{value === '' ? '(empty)' : value}</dd>
            </div>
          ))}
        </dl>
      )}
      <pre data-testid="response-body" aria-label="Response body">
        {result.body}
      </pre>
    </section>
  )
}
