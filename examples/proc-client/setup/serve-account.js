// Before the test file is imported: an account of its own on the run's `serve`, whose secret
// and base URL the suite reads from its environment, as it would in production. Frames as in
// process: beforeAll data stays for the file's tests, each test's own writes are undone. The
// authorization coverage of the run is added up in service-coverage.serve.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, inject } from 'vitest'
import { useService } from 'service-playground/vitest'

const service = useService({ serve: inject('serve'), coverage: 'service-coverage.serve.json' })
await service.ready
process.env.SECRET = service.secret
process.env.PROC_BASE_URL = service.baseUrl

// The file's run, kept before its account goes: `npx service-playground replay
// recordings/*.json --target …` sends it again and compares every answer, byte for byte.
afterAll(async () => {
  mkdirSync('recordings', { recursive: true })
  const account = service.baseUrl.split('/').at(-1)
  writeFileSync(`recordings/${account}.json`, JSON.stringify(await service.recording()))
})
