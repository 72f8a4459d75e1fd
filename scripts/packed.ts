/**
 * The package as a user installs it: `npm pack` (which builds `dist/` through
 * `prepack`), then the tarball installed into a new project in `dir`, with
 * the peers npm installs for it (from the registry or npm's cache) and any
 * `extra` packages. Used by the package's consumer test and by the startup
 * and memory benchmark of the installed package.
 */
import { spawn } from "node:child_process"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "./cleanEnv.js"

const root = fileURLToPath(new URL("..", import.meta.url))

const npm = (args: ReadonlyArray<string>, cwd: string) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn("npm", args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", reject)
    child.once("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`npm ${args.join(" ")} exited with ${code}\n${stdout}\n${stderr}`))
    )
  })

export interface Installed {
  /** The project's folder. */
  readonly dir: string
  /** The files of the tarball, as `npm pack` listed them. */
  readonly packed: ReadonlyArray<string>
}

/** Packs the package and installs it into a new ES module project in `dir` (an empty folder). */
export const installPacked = async (dir: string, extra: ReadonlyArray<string> = []): Promise<Installed> => {
  const listing = await npm(["pack", "--json", "--pack-destination", dir], root)
  const [tarball]: ReadonlyArray<{ filename: string; files: ReadonlyArray<{ path: string }> }> = JSON.parse(listing.slice(listing.indexOf("[")))
  if (tarball === undefined) throw new Error(`npm pack listed nothing:\n${listing}`)
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`)
  await npm(["install", "--no-audit", "--no-fund", "--prefer-offline", `./${tarball.filename}`, ...extra], dir)
  return { dir, packed: tarball.files.map((file) => file.path) }
}
