/** htm bound to preact: the page's templates, with no build step (the import map serves both from node_modules). */
import htmModule from 'htm';
import { h } from 'preact';

// htm's typings are CommonJS-shaped, so under NodeNext TypeScript reads this default import as the
// module object; in the browser, htm.mjs's default export is the function itself.
const htm = htmModule as unknown as (typeof htmModule)['default'];

export const html = htm.bind(h);
