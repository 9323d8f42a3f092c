/**
 * Matching cached queries by the generated query keys (the `get…QueryKey()` functions of
 * `src/api/generated`), never by URL strings.
 *
 * A generated key is `[url, params?]` for a GET and `['POST', url, body?]` for a read that is a POST.
 * Called without its params or body it names the operation; cut to that prefix it matches every query
 * of the operation (all pages of a list, every symbol, every filter).
 *
 * @module
 */

import { type QueryClient, type QueryKey, partialMatchKey } from '@tanstack/react-query';

/**
 * The generated `key` without its trailing `undefined` parts (the body a POST read's key holds as
 * `undefined` when called without one), so that it matches every query of its operation as a prefix.
 */
export function operationKey(key: QueryKey): QueryKey {
  let end = key.length;
  while (end > 0 && key[end - 1] === undefined) end -= 1;
  return key.slice(0, end);
}

/** Whether `queryKey` belongs to one of the operations named by the generated `keys` (any params or body). */
export function isQueryOf(queryKey: QueryKey, keys: readonly QueryKey[]): boolean {
  return keys.some((key) => partialMatchKey(queryKey, operationKey(key)));
}

/** Marks every query of the operations named by the generated `keys` stale and refetches the active ones. */
export function invalidateOperations(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => isQueryOf(query.queryKey, keys) });
}
