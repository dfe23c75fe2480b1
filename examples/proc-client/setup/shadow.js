// Every test starts from the account's starting state: an upstream of ours (`serve`) is reset
// through the shadow, which passes the request on and resets its mirror of the account too.
// Against the real service, which has no control plane, leave CONTROL_TOKEN out: a suite run
// there cleans up after itself instead.
import { afterEach } from 'vitest'

const control = process.env.CONTROL_TOKEN
if (control) {
  afterEach(async () => {
    const response = await fetch(`${process.env.PROC_BASE_URL}/_account/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control}`, 'content-type': 'application/json' },
      body: '{}',
    })
    if (!response.ok) throw new Error(`reset: ${response.status} ${await response.text()}`)
  })
}
