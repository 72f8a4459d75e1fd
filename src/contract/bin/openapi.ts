/**
 * `npm run openapi [path | -]`: writes the OpenAPI document of the service as
 * pretty JSON to `openapi.json` at the repository root, to the given path, or
 * to standard output when the argument is `-`. A one-line summary goes to
 * standard error.
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import * as OpenApi from "../../../common/src/contract/OpenApi.js"

/** Writes to stdout and waits until the text is handed to the OS; a closed pipe (EPIPE) ends quietly. */
const writeStdout = (text: string) =>
  Effect.async<void, NodeJS.ErrnoException>((resume) => {
    let done = false
    const finish = (error?: NodeJS.ErrnoException | null) => {
      if (!done) {
        done = true
        resume(error ? Effect.fail(error) : Effect.void)
      }
    }
    process.stdout.on("error", finish)
    process.stdout.write(text, finish)
  }).pipe(Effect.catchIf((error) => error.code === "EPIPE", () => Effect.void))

const program = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const document = OpenApi.make()
  const text = `${JSON.stringify(document, null, 2)}\n`
  const operations = Object.values(document.paths).length
  const argument = process.argv[2]

  if (argument === "-") {
    yield* writeStdout(text)
    yield* Console.error(`openapi: wrote ${operations} operations to stdout`)
    return
  }
  const target = argument === undefined
    ? yield* path.fromFileUrl(new URL("../../../openapi.json", import.meta.url))
    : path.resolve(argument)
  yield* fs.writeFileString(target, text)
  yield* Console.error(`openapi: wrote ${operations} operations to ${target}`)
})

program.pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain)
