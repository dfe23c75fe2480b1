/** `npm run serve`: the whole service over HTTP; see `serve-cli.ts` for the flags. */
import { main } from './serve-cli'

await main(process.argv.slice(2))
