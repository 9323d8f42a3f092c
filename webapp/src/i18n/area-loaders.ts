/**
 * The loaders of every area's texts in the languages other than English: a chunk of its own,
 * fetched with the first of those languages (alongside its base file), so an English page does not
 * download 200-odd loaders it never calls.
 *
 * @module
 */

/** `./<area>/<code>.json` → its loader, for every code but `en`. */
export const otherAreaLoaders = import.meta.glob<Record<string, unknown>>(['./*/*.json', '!./*/en.json'], { import: 'default' });
