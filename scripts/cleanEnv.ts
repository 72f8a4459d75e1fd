/**
 * The environment of the child processes that the tests, the benchmarks and
 * the packing of the package start.
 */

/**
 * The environment of a child process: this one's without the variables of
 * the `npm run` or the vitest run it is under, without colours, plus `extra`.
 */
export const cleanEnv = (extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) =>
      !name.toLowerCase().startsWith("npm_") && !name.startsWith("VITEST") && !["NODE_ENV", "TEST", "FORCE_COLOR"].includes(name)
    )
  ),
  NO_COLOR: "1",
  ...extra
})
