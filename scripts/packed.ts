/**
 * The package as a user installs it: `npm pack` (which builds `dist/` through
 * `prepack`), then the tarball installed into a new project in `dir` by
 * README's install command, the tarball in place of `effect-catalog`, with
 * any `extra` packages (from the registry or npm's cache). Used by the
 * package's consumer tests and by the startup and memory benchmark of the
 * installed package.
 */
import { spawn } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
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

/**
 * The packages of README's install command: the first `npm install
 * effect-catalog …` line of a shell block of its "Install" section, without
 * its comment (`["effect-catalog", "effect@^3.22.4", …]`).
 */
export const readmeInstall = (readme: string): ReadonlyArray<string> => {
  const section = /^## Install\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? ""
  const line = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .flatMap((block) => (block[1] ?? "").split("\n"))
    .find((line) => line.startsWith("npm install effect-catalog "))
  if (line === undefined) throw new Error(`README's "Install" section has no \`npm install effect-catalog …\` line in a shell block`)
  return line.slice("npm install ".length).replace(/\s+#.*$/, "").trim().split(/\s+/)
}

export interface Installed {
  /** The project's folder. */
  readonly dir: string
  /** The files of the tarball, as `npm pack` listed them. */
  readonly packed: ReadonlyArray<string>
  /** The tarball's file name, in `dir`. */
  readonly tarball: string
}

/**
 * Packs the package and installs it into a new ES module project in `dir` (an
 * empty folder) as README says, plus `extra`. The options added to README's
 * command change how npm fetches and reports, not what it installs.
 */
export const installPacked = async (dir: string, extra: ReadonlyArray<string> = []): Promise<Installed> => {
  const listing = await npm(["pack", "--json", "--pack-destination", dir], root)
  const [tarball]: ReadonlyArray<{ filename: string; files: ReadonlyArray<{ path: string }> }> = JSON.parse(listing.slice(listing.indexOf("[")))
  if (tarball === undefined) throw new Error(`npm pack listed nothing:\n${listing}`)
  const packages = readmeInstall(await readFile(join(root, "README.md"), "utf8"))
    .map((name) => (name === "effect-catalog" ? `./${tarball.filename}` : name))
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`)
  await npm(["install", "--no-audit", "--no-fund", "--prefer-offline", ...packages, ...extra], dir)
  return { dir, packed: tarball.files.map((file) => file.path), tarball: tarball.filename }
}
