/**
 * `npm run simulator -- [options]`: the simulator as a process, the same
 * program as `catalog simulator [options]`, so that its help, its refusals
 * of a bad option (one line, exit code 2) and its end on SIGINT or SIGTERM
 * are the command's. Like the command, it is written in Effect 3
 * (`tools/src/cli/bin.ts` says why).
 *
 * @since 0.1.0
 */
import * as Process from "../cli/internal/Process.js"

const [node = "node", script = "simulator", ...args] = process.argv

Process.run([node, script, "simulator", ...args])
