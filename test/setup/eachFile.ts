/**
 * Run before each test file. Files share a worker and its modules
 * (`isolate: false` in vitest.config.ts), so what one file leaves behind in
 * them is undone here before the next begins.
 */
import { afterAll, it } from "@effect/vitest"
import * as Servers from "../support/Servers.js"
import { pristine } from "./effectVitest.js"

// In Effect 3, `layer(...)` assigns its layer's methods onto Vitest's one `it` (Effect 4's
// @effect/vitest no longer does, Effect-TS/effect-smol#2177): a later file's `it.effect`
// would run in an earlier file's layer, on its TestClock.
Object.assign(it, pristine)

afterAll(Servers.stopPostgres, 30_000)
