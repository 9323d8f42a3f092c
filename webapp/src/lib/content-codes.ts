/**
 * The content store's fixed codes the screens list (docs/api.md "Content"): the help-centre
 * categories (`help_category`) and the announcement topics (slugs), in display order.
 *
 * @module
 */

/** The help categories, in display order. */
export const HELP_CATEGORIES = ['account', 'funds', 'trading', 'security', 'support'] as const;

/** The announcement topics (slugs), in display order; `all` shows every one. */
export const ANNOUNCEMENT_TOPICS = ['all', 'news', 'new-pairs', 'delisting', 'maintenance', 'campaigns'] as const;
