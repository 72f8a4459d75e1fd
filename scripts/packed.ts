/**
 * The package as a user installs it: `npm pack` (which builds `dist/` through
 * `prepack`), then the tarball installed into a new project in `dir` by
 * README's install command, the tarball in place of `effect-catalog`, with
 * any `extra` packages (from the registry or npm's cache). Used by the
 * package's consumer tests (which pack once for all of them,
 * `test/support/Packed.ts`) and by the startup and memory benchmark of the
 * installed package.
 */
import { spawn } from "node:child_process"
import { copyFile, readFile, writeFile } from "node:fs/promises"
import { basename, join } from "node:path"
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
 * The editions, by the package README's install command names: `effect-catalog@0`
 * for the Effect 3 edition (the repository's root), `effect-catalog@1` for
 * the Effect 4 edition (`effect4/`).
 */
export type Edition = "effect-catalog@0" | "effect-catalog@1"

/**
 * The packages of README's install command for `edition`: the first `npm
 * install effect-catalog@N …` line of a shell block of its "Install" section,
 * without its comment (`["effect-catalog@0", "effect@^3.22.4", …]`).
 */
export const readmeInstall = (readme: string, edition: Edition = "effect-catalog@0"): ReadonlyArray<string> => {
  const section = /^## Install\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? ""
  const line = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .flatMap((block) => (block[1] ?? "").split("\n"))
    .find((line) => line.startsWith(`npm install ${edition} `))
  if (line === undefined) throw new Error(`README's "Install" section has no \`npm install ${edition} …\` line in a shell block`)
  return line.slice("npm install ".length).replace(/\s+#.*$/, "").trim().split(/\s+/)
}

/** A tarball of the package, as `npm pack` made it. */
export interface Packed {
  /** The tarball's absolute path. */
  readonly tarball: string
  /** Its files, as `npm pack` listed them. */
  readonly files: ReadonlyArray<string>
}

/** Packs the package in `packageDir` (the root's by default) into `destination` (which builds `dist/` through `prepack`). */
export const pack = async (destination: string, packageDir: string = root): Promise<Packed> => {
  const listing = await npm(["pack", "--json", "--pack-destination", destination], packageDir)
  const [tarball]: ReadonlyArray<{ filename: string; files: ReadonlyArray<{ path: string }> }> = JSON.parse(listing.slice(listing.indexOf("[")))
  if (tarball === undefined) throw new Error(`npm pack listed nothing:\n${listing}`)
  return { tarball: join(destination, tarball.filename), files: tarball.files.map((file) => file.path) }
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
 * Installs the package into a new ES module project in `dir` (an empty
 * folder) as README says for `edition`, plus `extra`, from a copy in `dir`
 * of the tarball `packed` (by default, the root's package packed into `dir`
 * now). The options added to README's command change how npm fetches and
 * reports, not what it installs.
 */
export const installPacked = async (
  dir: string,
  extra: ReadonlyArray<string> = [],
  packed?: Packed,
  edition: Edition = "effect-catalog@0"
): Promise<Installed> => {
  const { tarball, files } = packed ?? await pack(dir)
  const filename = basename(tarball)
  if (tarball !== join(dir, filename)) await copyFile(tarball, join(dir, filename))
  const packages = readmeInstall(await readFile(join(root, "README.md"), "utf8"), edition)
    .map((name) => (name === edition ? `./${filename}` : name))
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`)
  await npm(["install", "--no-audit", "--no-fund", "--prefer-offline", ...packages, ...extra], dir)
  return { dir, packed: files, tarball: filename }
}
