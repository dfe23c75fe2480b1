// Before the test file is imported: an account of its own on the run's `serve`, whose secret
// and base URL the suite reads from its environment, as it would in production. Frames as in
// process: beforeAll data stays for the file's tests, each test's own writes are undone.
import { useService } from 'service-playground/jest'

const service = useService({
  serve: {
    url: process.env.PROC_SERVE_URL,
    controlToken: process.env.PROC_SERVE_CONTROL_TOKEN,
  },
})
await service.ready
process.env.SECRET = service.secret
process.env.PROC_BASE_URL = service.baseUrl
