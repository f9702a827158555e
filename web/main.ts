/**
 * The page's entry module. web/index.html, the one page shell (its head and import map), loads it
 * as /app/main.js at `/` and at `/rules.html` (serve/net/static.ts, PAGE_PATHS), and it shows the
 * view the path names — How to play, or the game — each module loaded only where it is shown.
 */
import { render } from 'preact';
import { html } from './html.js';

const root = document.getElementById('app');
if (root === null) throw new Error('web/index.html has no #app element');
const view =
  location.pathname === '/rules.html'
    ? { title: 'Yaniv — how to play', View: (await import('./howto.js')).HowToPlay }
    : { title: document.title, View: (await import('./app.js')).App };
document.title = view.title;
root.textContent = '';
render(html`<${view.View} />`, root);
