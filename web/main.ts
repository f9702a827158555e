/** The page's entry module (web/index.html loads it as /app/main.js). */
import { render } from 'preact';
import { App } from './app.js';
import { html } from './html.js';

const root = document.getElementById('app');
if (root === null) throw new Error('web/index.html has no #app element');
root.textContent = '';
render(html`<${App} />`, root);
