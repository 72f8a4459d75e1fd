/**
 * 6. Startup: how long `npm run --silent simulator -- --port 0` takes to
 * print its line (base URL and keys), the way a user or a test harness
 * starts it, one start after another.
 */
import { spawn } from "node:child_process"
import { atMost, type Benchmark, exited, figure, firstLine, median, root, secondsSince } from "./support.js"

const starts = 5

/** Starts the simulator through npm, gives the milliseconds to its first line, and stops it. */
const timeToLine = async (): Promise<number> => {
  const began = performance.now()
  // Its own process group, so that stopping npm stops the simulator under it.
  const child = spawn("npm", ["run", "--silent", "simulator", "--", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"], detached: true })
  await firstLine(child)
  const millis = performance.now() - began
  if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
  await exited(child)
  return millis
}

export const run = async (): Promise<Benchmark> => {
  const start = performance.now()
  const times: Array<number> = []
  for (let n = 0; n < starts; n++) times.push(await timeToLine())
  return {
    name: "6. startup",
    setup: `npm run --silent simulator -- --port 0, ${starts} starts one after another, time from spawn to its first line`,
    seconds: secondsSince(start),
    figures: [
      figure("simulator through npm: time to its line (median)", median(times), "ms", atMost(5_000)),
      figure("simulator through npm: slowest start", Math.max(...times), "ms")
    ]
  }
}
