import { InvalidError } from '../errors'
import { compiling, drive, RbSyntaxError } from '../lang/rb'
import { defineEndpoint } from '../runtime/endpoint'

/** The languages `core.compile` reads, by the name the command-line tool sends (a file's extension). */
export const LANGUAGES = ['rb'] as const

/**
 * `core.compile(code, lang)`: a program in the composer language (`lang: "rb"`, Ruby syntax)
 * as tuples, one composition per top-level block, nothing run. 400 for a program outside the
 * language, naming the line, the column and what was expected there (a bound passed
 * included: decision 050); 400 for an unknown `lang`, naming the ones there are, and for a
 * program longer than a request body may be. Compiling takes its turns and keeps the time limit
 * as evaluating does: 408 past it.
 */
export const compileCore = defineEndpoint({
  name: 'core.compile',
  summary:
    'Compiles a program (lang rb: the composer language, Ruby syntax) to tuples, one composition per block.',
  args: {
    code: { type: 'string', required: true, doc: 'the program' },
    lang: { type: 'string', default: 'rb', doc: 'its language: rb' },
  },
  async run({ name, args, ctx }) {
    if (!(LANGUAGES as readonly string[]).includes(args.lang)) {
      throw new InvalidError(
        `invalid argument \`lang' for \`${name}' (\`${args.lang}' is not supported; use ${LANGUAGES.map((lang) => `\`${lang}'`).join(', ')})`,
      )
    }
    const { maxBodyBytes } = ctx.settings.limits
    if (args.code.length > maxBodyBytes) {
      throw new InvalidError(
        `invalid argument \`code' for \`${name}' (is longer than ${maxBodyBytes} characters, more than a request body may hold)`,
        'too_large',
      )
    }
    try {
      return await drive(compiling(args.code, ctx.settings.serviceName), () => ctx.turn())
    } catch (error) {
      if (!(error instanceof RbSyntaxError)) throw error
      throw new InvalidError(
        `invalid argument \`code' for \`${name}' (${error.located})`,
        'syntax_error',
      )
    }
  },
})
