/**
 * Run before each test file. Files share a worker and its modules
 * (`isolate: false` in vitest.config.ts), so what one file leaves behind in
 * them is undone after it.
 */
import { afterAll } from "@effect/vitest"
import * as Mirror from "./Mirror.js"

afterAll(Mirror.stopPostgres, 30_000)
