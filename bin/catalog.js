#!/usr/bin/env node
// The `catalog` command of effect-catalog: runs src/cli/bin.ts through tsx.
import { register } from "tsx/esm/api"

register()
await import("../src/cli/bin.ts")
