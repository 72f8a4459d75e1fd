/**
 * Makes the process it is loaded into late on purpose, as a busy machine
 * does: loaded with `node --import`, it blocks the event loop for a random
 * 50 to 500 ms at random moments (0 to 300 ms apart) for as long as the
 * process runs. Every timer, every answer from a socket and every step of
 * the program then runs late, by however long the block in its way lasts.
 * When `LATE_EVENT_LOOP_LOG` names a file, the process writes there at its
 * exit how many blocks it made and how long they lasted in all, so that a
 * test can see the program was in fact made late.
 */
import { writeFileSync } from "node:fs"

let blocks = 0
let blockedMillis = 0

const block = () => {
  const millis = 50 + Math.random() * 450
  const until = performance.now() + millis
  while (performance.now() < until) {
    // The event loop waits.
  }
  blocks++
  blockedMillis += millis
  setTimeout(block, Math.random() * 300).unref()
}

setTimeout(block, Math.random() * 300).unref()

const log = process.env.LATE_EVENT_LOOP_LOG
if (log !== undefined && log !== "") {
  process.on("exit", () => writeFileSync(log, JSON.stringify({ blocks, blockedMillis: Math.round(blockedMillis) })))
}
