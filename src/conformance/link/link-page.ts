/** Where `npm start` serves the playground. */
export const DEFAULT_PAGE = 'http://127.0.0.1:5173/'

/** Where links point: `SERVICE_PLAYGROUND_PAGE` when set, else `npm start`'s address. */
export const linkPage = (env: NodeJS.ProcessEnv = process.env): string =>
  env.SERVICE_PLAYGROUND_PAGE || DEFAULT_PAGE
