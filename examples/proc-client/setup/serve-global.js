// One `serve` for the whole run, on a free port; each test file gets an account of its own on it.
// Seeded: every value its accounts draw comes from their seed and their own signing keys, so
// that each file's run can be sent again and answer byte for byte the same.
import { spawnServe } from 'service-playground'

export default async function serveForTheRun({ provide }) {
  const server = await spawnServe([
    '--port',
    '0',
    '--service-name',
    'proc',
    '--seed',
    'proc-client',
  ])
  provide('serve', { url: server.url, controlToken: server.controlToken })
  return () => server.stop()
}
