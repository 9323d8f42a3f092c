/**
 * Test helpers of the account centre: the shared fake backend (`src/test`), a member with nothing
 * set up yet, and logged in at an account screen.
 *
 * @module
 */

import type { UserInfo } from '../../api/generated/model';
import { type UserOverrides, makeUser as member } from '../../test/fake-backend';
import { renderSignedIn } from '../../test/render';

export { type Call, callsTo, fail, fakeBackend, ok } from '../../test/fake-backend';

/** A user with e-mail bound and nothing else set up (no fund password). */
export function makeUser(overrides: UserOverrides = {}): UserInfo {
  return member({ ...overrides, security: { fundPasswordSet: false, ...overrides.security } });
}

/** Logs in (a session cookie) and renders the app at `path` with `user` in the cache. */
export function renderAccount(path: string, user: UserInfo) {
  return renderSignedIn(path, user);
}
