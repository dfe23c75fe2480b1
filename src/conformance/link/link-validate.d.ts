import type { ValidateFunction } from 'ajv'
import type { StepLink } from './step-link'

/**
 * `schemas/link.json` (with `schemas/cases.json`) as Ajv's standalone code, compiled ahead
 * (`link-validate.test.ts` makes it and checks it is current): a page that opens a link does
 * not compile the schema first (decision 106).
 */
declare const validate: ValidateFunction<StepLink>
export default validate
