import pkg from '../../../package.json' with { type: 'json' }

/** The version of the engine in this build: the package's. A link names the one that made it. */
export const ENGINE_VERSION: string = pkg.version
