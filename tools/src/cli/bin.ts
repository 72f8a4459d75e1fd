#!/usr/bin/env node
/**
 * `catalog …` (the package's `bin`) and `npm run --silent catalog -- …`: the
 * `catalog` command as a process. Its title hides the secrets of its
 * command line before the rest of the command loads (`ProcessTitle`); the
 * command then runs to its end with its exit code (`Process`).
 *
 * The tools (this command and the simulator, `tools/`) are one program,
 * written in Effect 3 on the Effect 3 edition's public modules: `@effect/cli`
 * and `@effect/platform`, which it is built on, exist only there, and Effect
 * 3 applications embed its commands (`effect-catalog/cli`,
 * `SimulatorCommand`). Each package ships it bundled with that Effect
 * (`scripts/bundle.ts`), so the command runs the same beside either edition,
 * and the Effect 4 package holds no Effect 3 module but inside the bundles.
 *
 * @example
 * ```sh
 * CATALOG_API_KEY=… CATALOG_BASE_URL=http://127.0.0.1:8080/api/v1 npx tsx tools/src/cli/bin.ts stats
 * ```
 * @since 0.1.0
 */
import * as ProcessTitle from "./internal/ProcessTitle.js"

ProcessTitle.hideSecrets(process.argv)

const Process = await import("./internal/Process.js")
Process.run(process.argv)
