/** The package's version, as `package.json` states it (a test holds the two together). */
export const version = "0.7.2"
