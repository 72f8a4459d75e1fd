/**
 * Checks that tmux is installed and can start a private server, for the
 * tests of what the command shows on a real terminal (`test/support/Terminal.ts`
 * starts a server of its own for each of them). A tmux that is missing or
 * cannot start within 5 seconds ends the run at once with one line saying
 * what is missing and how to install it.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setupFailure } from "../../scripts/localServer.js"

const install = "install it with `apt-get install -y tmux` (or `brew install tmux`)"

const need = "the tests of the command's progress line need a real terminal"

export default function setup() {
  if (spawnSync("tmux", ["-V"], { stdio: "ignore", timeout: 5_000 }).error !== undefined) {
    throw setupFailure(`tmux is not installed, and ${need}: ${install}`)
  }
  const folder = mkdtempSync(join(tmpdir(), "tmux-check-"))
  const tmux = (args: ReadonlyArray<string>) =>
    spawnSync("tmux", ["-S", join(folder, "socket"), "-f", "/dev/null", ...args], { encoding: "utf8", timeout: 5_000, killSignal: "SIGKILL" })
  try {
    const started = tmux(["new-session", "-d", "-x", "20", "-y", "5", "sleep", "10"])
    if (started.error !== undefined || started.status !== 0) {
      const reason = started.error?.message ?? (started.stderr.trim() || `it exited with ${started.signal ?? `code ${started.status}`}`)
      throw setupFailure(`tmux could not start a server (${reason.split("\n")[0]}), and ${need}: ${install}`)
    }
  } finally {
    tmux(["kill-server"])
    rmSync(folder, { recursive: true, force: true })
  }
}
