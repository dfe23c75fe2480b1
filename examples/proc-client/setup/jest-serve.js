// Before the test file is imported: an account of its own on the run's `serve`, whose secret
// and base URL the suite reads from its environment, as it would in production. Frames as in
// process: beforeAll data stays for the file's tests, each test's own writes are undone. The
// authorization coverage of the run is added up in service-coverage.jest.json, and every
// passing test is a case of contracts/jest.json.
import { useService } from 'service-playground/jest'

const service = useService({
  serve: {
    url: process.env.PROC_SERVE_URL,
    controlToken: process.env.PROC_SERVE_CONTROL_TOKEN,
  },
  coverage: 'service-coverage.jest.json',
  contract: 'contracts/jest.json',
})
await service.ready
process.env.SECRET = service.secret
process.env.PROC_BASE_URL = service.baseUrl
