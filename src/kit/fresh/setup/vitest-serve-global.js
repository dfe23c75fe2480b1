// One `serve` for the serve project's run, on a free port.
import { spawnServe } from 'service-playground'

export default async function serveForTheRun({ provide }) {
  const server = await spawnServe(['--port', '0', '--service-name', 'proc'])
  provide('serve', { url: server.url, controlToken: server.controlToken })
  return () => server.stop()
}
