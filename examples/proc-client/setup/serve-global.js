// One `serve` for the whole run, on a free port; each test file gets an account of its own on it.
import { spawnServe } from 'service-playground'

export default async function serveForTheRun({ provide }) {
  const server = await spawnServe(['--port', '0', '--service-name', 'proc'])
  provide('serve', { url: server.url, controlToken: server.controlToken })
  return () => server.stop()
}
