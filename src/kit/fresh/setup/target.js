// What each file asks useService for: a service in its own process, or, in the serve projects,
// an account of its own on the run's `serve` (KIT_SERVE, set by the serve project's setup).
export function serviceOptions() {
  const serve = process.env.KIT_SERVE
  return serve
    ? { serve: JSON.parse(serve) }
    : { baseUrl: 'https://kit.test', serviceName: 'proc', secrets: ['kit-secret-0123456789'] }
}

/** Calls `name` at `baseUrl` with `token`, as a client would: tuples in, tuples out. */
export function call(baseUrl, name, token, tuples = []) {
  return fetch(`${baseUrl}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.proc+json',
      accept: 'application/vnd.proc+json',
    },
    body: JSON.stringify(tuples),
  })
}
