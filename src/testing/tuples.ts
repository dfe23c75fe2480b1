/** A call written in the tuple language (`vnd.service+json`), answered in it. */
export function tuplesRequest(base: string, name: string, token: string, tuples: unknown[]) {
  return new Request(`${base}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.service+json',
      accept: 'application/vnd.service+json',
    },
    body: JSON.stringify(tuples),
  })
}
