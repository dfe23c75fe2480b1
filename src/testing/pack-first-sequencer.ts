import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Vitest's order (its cache's slowest first, else the largest files, project by project by
 * name), with the `pack` project's file moved to the front: it takes minutes (it packs, installs
 * into fresh projects, runs the README's examples and the client suite there), mostly waiting on
 * the processes it starts, and the rest of the suite fills the other workers meanwhile instead
 * of leaving it to run alone at the end.
 */
export class PackFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isPack = (file: TestSpecification) => file.project.name === 'pack'
    return [...sorted.filter(isPack), ...sorted.filter((file) => !isPack(file))]
  }
}
