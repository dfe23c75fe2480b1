import { InvalidError } from '../errors'
import { compileProgram, RbSyntaxError } from '../lang/rb'
import { defineEndpoint } from '../runtime/endpoint'

/** The languages `core.compile` reads, by the name the command-line tool sends (a file's extension). */
export const LANGUAGES = ['rb'] as const

/**
 * `core.compile(code, lang)`: a program in the composer language (`lang: "rb"`, Ruby syntax)
 * as tuples, one composition per top-level block, nothing run. 400 for a program outside the
 * language, naming the line, the column and what was expected there; 400 for an unknown
 * `lang`, naming the ones there are.
 */
export const compileCore = defineEndpoint({
  name: 'core.compile',
  summary:
    'Compiles a program (lang rb: the composer language, Ruby syntax) to tuples, one composition per block.',
  args: {
    code: { type: 'string', required: true, doc: 'the program' },
    lang: { type: 'string', default: 'rb', doc: 'its language: rb' },
  },
  run({ name, args, ctx }) {
    if (!(LANGUAGES as readonly string[]).includes(args.lang)) {
      throw new InvalidError(
        `invalid argument \`lang' for \`${name}' (\`${args.lang}' is not supported; use ${LANGUAGES.map((lang) => `\`${lang}'`).join(', ')})`,
      )
    }
    try {
      return compileProgram(args.code, ctx.settings.serviceName)
    } catch (error) {
      if (!(error instanceof RbSyntaxError)) throw error
      throw new InvalidError(
        `invalid argument \`code' for \`${name}' (${error.located})`,
        'syntax_error',
      )
    }
  },
})
