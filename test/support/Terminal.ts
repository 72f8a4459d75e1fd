/**
 * A real terminal for the tests of what a command shows while it runs: the
 * command runs in the one pane of a private tmux server (its own socket in a
 * temporary folder, no configuration file, a fixed size, no status line),
 * and a test reads the screen as a person at that terminal would see it. The
 * pane stays after the command ends, so that its last screen and its exit
 * code can be read. The server, and the command if it still runs, are
 * killed when the scope closes, whether the test passed or not.
 *
 * Every tmux command has a time limit, and the waits run in real time
 * whatever clock the test has: nothing here can hang a test.
 *
 * @example
 * ```ts
 * it.scopedLive("shows its summary", () =>
 *   Effect.gen(function*() {
 *     const terminal = yield* Terminal.open({ command: ["catalog", "stats"], cwd: root, stdoutTo: join(folder, "stdout") })
 *     yield* terminal.waitFor((screen) => screen.includes("catalog: stats"), "10 seconds")
 *     expect(yield* terminal.exited("5 seconds")).toBe(0)
 *   }))
 * ```
 */
import { Clock, Data, Duration, Effect, type Scope } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cleanEnv } from "../../scripts/cleanEnv.js"

/** A tmux command that failed, or a wait that ran out; the message says which, with the last screen when there is one. */
export class TerminalError extends Data.TaggedError("TerminalError")<{ readonly message: string }> {}

/** What to run, and in what terminal. */
export interface Options {
  /** The program and its arguments, run as they are (no shell reads them). */
  readonly command: ReadonlyArray<string>
  /** The folder the program starts in. */
  readonly cwd: string
  /** The program's environment; `cleanEnv()` when absent. */
  readonly env?: NodeJS.ProcessEnv
  /** The terminal's width; 100 when absent. */
  readonly columns?: number
  /** The terminal's height; 30 when absent. */
  readonly rows?: number
  /** A file the program's stdout is written to instead of the terminal; its stderr stays on the terminal. */
  readonly stdoutTo?: string
}

/** A command running, or ended, in a terminal of its own. */
export interface Terminal {
  /** The text on the screen now, without the blank lines below the last line written. */
  readonly screen: Effect.Effect<string, TerminalError>
  /** The screen now with its attributes (`capture-pane -e`): a colour or a bold shows as the escape sequence that sets it. */
  readonly styledScreen: Effect.Effect<string, TerminalError>
  /** The pane's title now: a program sets it with an escape sequence (OSC 0 or 2). */
  readonly title: Effect.Effect<string, TerminalError>
  /** The screen once `predicate` holds of it, looked at every 50 ms; fails with the last screen when it does not within `timeout`. */
  readonly waitFor: (predicate: (screen: string) => boolean, timeout: Duration.DurationInput) => Effect.Effect<string, TerminalError>
  /**
   * The program's exit code once it has ended and the screen shows all it
   * wrote, or `null` before; a program ended by a signal gives 128 + its
   * number, as a shell does.
   */
  readonly exitCode: Effect.Effect<number | null, TerminalError>
  /** The exit code once the program has ended; fails with the last screen when it has not within `timeout`. */
  readonly exited: (timeout: Duration.DurationInput) => Effect.Effect<number, TerminalError>
}

/** The longest a tmux command may take. */
const tmuxTimeout = 5_000

/** How often a wait looks again. */
const pollInterval = Duration.millis(50)

/** Runs `tmux` on the private server of `socket`, with no configuration file, and gives what it printed. */
const tmux = (socket: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) =>
  Effect.async<string, TerminalError>((resume) => {
    const child = execFile(
      "tmux",
      ["-S", socket, "-f", "/dev/null", ...args],
      { env, timeout: tmuxTimeout, killSignal: "SIGKILL", encoding: "utf8" },
      (error, stdout, stderr) =>
        resume(
          error === null
            ? Effect.succeed(stdout)
            : Effect.fail(new TerminalError({ message: `tmux ${args.join(" ")} failed: ${stderr.trim() === "" ? error.message : stderr.trim()}` }))
        )
    )
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/**
 * An argument as tmux keeps it: tmux ends a command at an argument that ends
 * with `;`, and keeps the `;` of one that ends with `\;`.
 */
const literal = (argument: string) => argument.endsWith(";") ? `${argument.slice(0, -1)}\\;` : argument

/** Kills the process (or, for a negative number, the process group) `pid` if it still runs. */
const kill = (pid: number) =>
  Effect.sync(() => {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // It has ended already.
    }
  })

/** A process id tmux printed, or `null`. */
const pidOf = (field: string | undefined) => {
  const pid = Number(field)
  return Number.isInteger(pid) && pid > 0 ? pid : null
}

/**
 * Runs `options.command` in a new terminal for the life of the scope: a
 * private tmux server whose one pane is `columns` × `rows` and keeps its
 * last screen once the program has ended. Closing the scope kills the
 * server and the program, and removes the server's folder.
 */
export const open = (options: Options): Effect.Effect<Terminal, TerminalError, Scope.Scope> =>
  Effect.gen(function*() {
    const folder = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "terminal-"))),
      (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
    )
    const socket = join(folder, "socket")
    // A server started from within tmux must not take itself for a nested session.
    const { TMUX: _tmux, TMUX_PANE: _pane, ...env } = options.env ?? cleanEnv()
    const run = (args: ReadonlyArray<string>) => tmux(socket, args, env)
    // The pane's shell writes the program's exit status to a file: tmux (3.3a at least) sometimes never learns it, `#{pane_dead_status}` stays empty.
    const statusFile = join(folder, "status")
    const program = options.stdoutTo === undefined
      ? ["sh", "-c", "status=$1; shift; \"$@\"; echo $? > \"$status\"", "sh", statusFile, ...options.command]
      : ["sh", "-c", "status=$1; out=$2; shift 2; \"$@\" > \"$out\"; echo $? > \"$status\"", "sh", statusFile, options.stdoutTo, ...options.command]
    const pids: Array<number> = []
    yield* Effect.addFinalizer(() =>
      Effect.ignore(run(["kill-server"])).pipe(
        // The server hangs up on its pane as it ends; neither it nor the pane's processes may outlive the test, whatever happened to the server.
        Effect.zipRight(Effect.forEach(pids, kill, { discard: true }))
      )
    )
    // The options are set before the session starts its program: a program that ends at once still leaves its pane.
    const started = yield* run([
      "start-server",
      ";",
      "set-option",
      "-g",
      "remain-on-exit",
      "on",
      ";",
      "set-option",
      "-g",
      "status",
      "off",
      ";",
      // tmux writes "Pane is dead" on the screen of a pane that remains; from 3.3 on it can be told not to (`-q`: earlier versions pass over the option).
      "set-option",
      "-gq",
      "remain-on-exit-format",
      "",
      ";",
      "new-session",
      "-d",
      "-P",
      "-F",
      "#{pane_id} #{pid} #{pane_pid}",
      "-x",
      String(options.columns ?? 100),
      "-y",
      String(options.rows ?? 30),
      "-c",
      options.cwd,
      ...program.map(literal)
    ])
    const [pane = "", server, shell] = started.trim().split(" ")
    const serverPid = pidOf(server)
    const shellPid = pidOf(shell)
    // The pane's shell leads a process group of its own, which the program is in: killing the group kills both.
    pids.push(...(serverPid === null ? [] : [serverPid]), ...(shellPid === null ? [] : [-shellPid]))

    const screen = Effect.map(run(["capture-pane", "-p", "-t", pane]), (text) => text.replace(/\s+$/, ""))

    const status = Effect.promise(() => readFile(statusFile, "utf8").then((text) => text.trim() === "" ? null : Number(text.trim()), () => null))
    // A pane is dead once tmux has read all the program wrote: then its screen is the last one.
    const exitCode = Effect.flatMap(run(["display-message", "-p", "-t", pane, "#{pane_dead}"]), (dead) => dead.trim() === "1" ? status : Effect.succeed(null))

    /** What `attempt` gives once it gives something; else, after `timeout`, a failure that says what was awaited and shows the screen. */
    const poll = <A>(attempt: Effect.Effect<A | undefined, TerminalError>, timeout: Duration.DurationInput, awaited: string) =>
      Effect.gen(function*() {
        const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(timeout)
        while (true) {
          const value = yield* attempt
          if (value !== undefined) return value
          if ((yield* Clock.currentTimeMillis) >= deadline) {
            const last = yield* screen
            const shown = last === "" ? "the screen is blank" : `the screen:\n${last}`
            return yield* Effect.fail(new TerminalError({ message: `${awaited} within ${Duration.format(timeout)}; ${shown}` }))
          }
          yield* Effect.sleep(pollInterval)
        }
      }).pipe(Effect.withClock(Clock.make()))

    const terminal: Terminal = {
      screen,
      styledScreen: Effect.map(run(["capture-pane", "-p", "-e", "-t", pane]), (text) => text.replace(/\s+$/, "")),
      title: Effect.map(run(["display-message", "-p", "-t", pane, "#{pane_title}"]), (text) => text.replace(/\n$/, "")),
      waitFor: (predicate, timeout) =>
        poll(Effect.map(screen, (text) => predicate(text) ? text : undefined), timeout, "the screen awaited did not come"),
      exitCode,
      exited: (timeout) => poll(Effect.map(exitCode, (code) => code ?? undefined), timeout, "the program did not end")
    }
    return terminal
  })
