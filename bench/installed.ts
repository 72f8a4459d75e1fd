/**
 * 7. The installed package: the tarball of `npm pack` installed into a new
 * project with its peers, as a user gets it, then, from that project:
 *
 * - start-up of the installed command, `catalog --version`, against a
 *   process that only imports `effect` (`node -e "import('effect')"`), in
 *   alternating runs;
 * - resident memory right after `import('effect-catalog')` from `dist`,
 *   before any request, against a bare `import('effect')`.
 */
import { spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../scripts/cleanEnv.js"
import { installPacked } from "../scripts/packed.js"
import { atMost, type Benchmark, figure, median, megabytes, secondsSince } from "./support.js"

const rounds = 10

/** Runs a command in `cwd` to its end; gives its wall time in ms and what it printed. */
const timed = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<{ readonly millis: number; readonly stdout: string }>((resolve, reject) => {
    const began = performance.now()
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "inherit"] })
    let stdout = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.once("error", reject)
    child.once("close", (code) =>
      code === 0 ? resolve({ millis: performance.now() - began, stdout }) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))
    )
  })

/** `node --input-type=module -e` of an import, printing the process's resident memory once it is loaded. */
const rssAfter = (specifier: string, cwd: string) =>
  timed(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)}); console.log(process.memoryUsage().rss)`], cwd)
    .then(({ stdout }) => Number(stdout.trim()))

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const dir = await mkdtemp(join(tmpdir(), "effect-catalog-bench-"))
  try {
    await installPacked(dir)
    const catalog = join(dir, "node_modules", ".bin", "catalog")
    const command = () => timed(catalog, ["--version"], dir)
    const effect = () => timed(process.execPath, ["-e", "import('effect')"], dir)
    // One of each first, not counted: the file system's caches.
    await command()
    await effect()
    const commandMillis: Array<number> = []
    const effectMillis: Array<number> = []
    const ratios: Array<number> = []
    for (let round = 0; round < rounds; round++) {
      const a = (await command()).millis
      const b = (await effect()).millis
      commandMillis.push(a)
      effectMillis.push(b)
      ratios.push(a / b)
    }
    const libraryRss: Array<number> = []
    const effectRss: Array<number> = []
    for (let round = 0; round < 5; round++) {
      libraryRss.push(await rssAfter("effect-catalog", dir))
      effectRss.push(await rssAfter("effect", dir))
    }
    return {
      name: "7. installed package",
      setup:
        `npm pack, installed with its peers into a new project; ${rounds} alternating runs of catalog --version and node -e "import('effect')" after one of each; resident memory right after import('effect-catalog') from dist and after import('effect'), 5 processes each`,
      seconds: secondsSince(start),
      figures: [
        figure("catalog --version: wall time (median)", median(commandMillis), "ms"),
        figure("node -e \"import('effect')\": wall time (median)", median(effectMillis), "ms"),
        figure("catalog --version over import('effect') (median of pairs)", median(ratios), "x", atMost(1.5)),
        figure("RSS after import('effect-catalog') (median)", megabytes(median(libraryRss)), "MB"),
        figure("RSS after import('effect') (median)", megabytes(median(effectRss)), "MB")
      ]
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
