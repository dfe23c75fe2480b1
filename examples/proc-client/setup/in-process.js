// Each test file gets the service in its own process, answering https://proc.run through msw,
// with the secret the suite reads from its environment; the authorization coverage of the whole
// run is added up in service-coverage.json.
import { useService } from 'service-playground/vitest'

useService({
  baseUrl: 'https://proc.run',
  serviceName: 'proc',
  secrets: [process.env.SECRET],
  coverage: 'service-coverage.json',
})
