/**
 * The words of the command's messages that depend on a number or a noun:
 * a count with its noun in the singular or the plural ("1 page", "2 pages",
 * "1 retry", "3 retries"), and a noun with its article ("an integer").
 */

/**
 * A count with its noun: `plural(1, "unit")` is "1 unit", `plural(2, "unit")`
 * "2 units"; a noun whose plural is not its singular and an "s" names it
 * (`plural(2, "retry", "retries")`).
 */
export const plural = (count: number, noun: string, nouns: string = `${noun}s`): string => `${count} ${count === 1 ? noun : nouns}`

/** A noun with its indefinite article, by its first letter: "an integer", "a number". */
export const withArticle = (noun: string): string => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`
