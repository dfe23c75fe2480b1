// The suite through `serve --upstream` (shadow mode), with the frames it has everywhere else:
// what a file's or a block's `beforeAll` writes stays for its tests, what a test writes is
// undone when it ends. The checkpoints are taken on the upstream's account through the shadow,
// which takes them on its mirror too. An upstream of ours (`serve`) has a control plane; the
// real service has none: there, leave CONTROL_TOKEN out and the suite cleans up after itself.
import { useService } from 'service-playground/vitest'

const controlToken = process.env.CONTROL_TOKEN
if (controlToken) {
  const service = useService({
    serve: { url: process.env.PROC_BASE_URL, controlToken, secret: process.env.SECRET },
  })
  await service.ready
}
