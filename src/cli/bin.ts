#!/usr/bin/env node
/**
 * `catalog …` (the package's `bin`) and `npm run --silent catalog -- …`: the
 * `catalog` command as a process. Its title hides the secrets of its
 * command line before the rest of the command loads (`ProcessTitle`); the
 * command then runs to its end with its exit code (`Process`).
 *
 * @example
 * ```sh
 * CATALOG_API_KEY=… CATALOG_BASE_URL=http://127.0.0.1:8080/api/v1 npx tsx src/cli/bin.ts stats
 * ```
 * @since 0.1.0
 */
import * as ProcessTitle from "./internal/ProcessTitle.js"

ProcessTitle.hideSecrets(process.argv)

const Process = await import("./internal/Process.js")
Process.run(process.argv)
