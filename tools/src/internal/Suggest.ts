/**
 * The nearest valid names to a mistyped one, for "did you mean …?": by the
 * edit distance of `@effect/cli` (case ignored), close enough for the
 * length of the name, or starting with it.
 */
import * as AutoCorrect from "@effect/cli/AutoCorrect"
import * as CliConfig from "@effect/cli/CliConfig"

/** How many edits a name of this length may be away from a suggestion. */
const tolerance = (name: string) => Math.max(1, Math.min(3, Math.floor(name.length / 3) + 1))

/** The valid names nearest to `name`, nearest first, at most `limit`. */
export const nearest = (name: string, candidates: Iterable<string>, limit = 3): ReadonlyArray<string> => {
  const lower = name.toLowerCase()
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, distance: AutoCorrect.levensteinDistance(name, candidate, CliConfig.defaultConfig) }))
    .filter(({ candidate, distance }) =>
      distance <= tolerance(name) || (lower.length >= 3 && candidate.toLowerCase().startsWith(lower))
    )
    .sort((left, right) => left.distance - right.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate)
}

/** Words as a choice in prose: "a", "a or b", "a, b or c". */
export const alternatives = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`

/** "; did you mean `models`?" for the nearest names, or "" when none is near. */
export const didYouMean = (name: string, candidates: Iterable<string>, show: (name: string) => string = (name) => name): string => {
  const found = nearest(name, candidates)
  return found.length === 0 ? "" : `; did you mean ${alternatives(found.map((candidate) => `\`${show(candidate)}\``))}?`
}
