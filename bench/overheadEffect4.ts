/**
 * The Effect 4 edition's process of benchmark 2, as `bench/overhead.ts`
 * drives it: `effect4/bench/overhead-child.ts` under the edition's own Node
 * 22 and tsx, against the simulator the Effect 3 edition's rows read, asked
 * for one round at a time so that the two editions' rounds alternate. It
 * measures nothing itself: the child samples its own CPU and time.
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import path from "node:path"
import { edition, type SimulatorProcess, startEffect4Child } from "./support.js"

const Sample = Schema.Struct({ items: Schema.Number, seconds: Schema.Number, cpuMicros: Schema.Number })

/** The child's first line: its Node version and the cost of decoding one page, in microseconds. */
const Hello = Schema.parseJson(Schema.Struct({ node: Schema.String, jsonParse: Schema.Number, schemaDecode: Schema.Number }))
export type Hello = typeof Hello.Type

/** One round of the child: a scan by each of its three ways. */
const Round = Schema.parseJson(Schema.Struct({ client: Sample, plain: Sample, floor: Sample }))
export type Round = typeof Round.Type

const EffectPackage = Schema.parseJson(Schema.Struct({ version: Schema.String }))

/** The version of `effect` the edition has installed. */
export const effectVersion = (): string =>
  Schema.decodeUnknownSync(EffectPackage)(readFileSync(path.join(edition, "node_modules", "effect", "package.json"), "utf8")).version

/** The Effect 4 edition's process, ready for rounds. */
export interface Effect4Process {
  readonly hello: Hello
  /** Runs one round in the child and gives its samples. */
  readonly round: () => Promise<Round>
  /** Ends the child (its standard input) and waits for it to exit. */
  readonly stop: () => Promise<void>
}

/**
 * Starts the child against `simulator` (`startEffect4Child`, which installs
 * the edition's packages first when they are missing or older than its
 * lock): its base URL as an argument, its key in the child's environment
 * only.
 */
export const start = async (simulator: SimulatorProcess): Promise<Effect4Process> => {
  const child = await startEffect4Child(path.join("bench", "overhead-child.ts"), simulator)
  try {
    return {
      hello: Schema.decodeUnknownSync(Hello)(child.hello),
      round: async () => Schema.decodeUnknownSync(Round)(await child.ask("round")),
      stop: child.stop
    }
  } catch (error) {
    await child.stop()
    throw error
  }
}
