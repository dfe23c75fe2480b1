// The serve project's files find the run's `serve` in their environment (each file's own copy).
process.env.KIT_SERVE = process.env.KIT_SERVE_RUN
// And where a copied test looks for a running `serve`, as the playground writes it.
const { url, controlToken } = JSON.parse(process.env.KIT_SERVE_RUN)
process.env.SERVICE_PLAYGROUND_URL = url
process.env.SERVICE_PLAYGROUND_CONTROL_TOKEN = controlToken
