// The serve project's files find the run's `serve` in their environment.
import { inject } from 'vitest'

const serve = inject('serve')
process.env.KIT_SERVE = JSON.stringify(serve)
// And where a copied test looks for a running `serve`, as the playground writes it.
process.env.SERVICE_PLAYGROUND_URL = serve.url
process.env.SERVICE_PLAYGROUND_CONTROL_TOKEN = serve.controlToken
